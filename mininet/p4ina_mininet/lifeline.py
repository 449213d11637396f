"""Lifelines (src/run/lifeline.ts, the same protocol): a child must not
outlive the process that started it, however that process ends.

- `watch(on_gone)`: when `p4ina testbed` (Node) started this runner, it gave
  it a pipe on an extra fd named by P4INA_LIFELINE_FD, which it never writes
  to; end-of-file on it means Node died (kill -9 included), and `on_gone`
  runs (the runner then tears down as on SIGTERM).
- `child_popen_kwargs()`: Popen keyword arguments that give a `p4ina`
  child of this runner (switches, agents) a lifeline to it in turn: the read
  end of one pipe whose write end only this process holds.
"""
import os
import threading

ENV = 'P4INA_LIFELINE_FD'

_read_fd = None


def watch(on_gone):
    """Calls on_gone() (from a thread) once our parent is gone; False when it gave us no lifeline."""
    value = os.environ.pop(ENV, None)
    if value is None:
        return False
    try:
        fd = int(value)
        os.fstat(fd)
    except (ValueError, OSError):
        return False
    if fd < 3:
        return False

    def wait():
        try:
            while os.read(fd, 4096):
                pass
        except OSError:
            pass
        on_gone()

    threading.Thread(target=wait, name='p4ina-lifeline', daemon=True).start()
    return True


def child_popen_kwargs(env=None):
    """pass_fds and env for a `p4ina` child: it stops by itself when this process dies."""
    global _read_fd
    if _read_fd is None:
        # Both ends are non-inheritable (PEP 446): only the children given pass_fds get the read end,
        # and the write end stays in this process alone, so its death is the end-of-file.
        _read_fd, _write_fd = os.pipe()
    child_env = dict(os.environ if env is None else env)
    child_env[ENV] = str(_read_fd)
    return {'pass_fds': (_read_fd,), 'env': child_env}
