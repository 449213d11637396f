"""Server processes the runs start on a host before their workers (the
parameter-server baseline's server, OmniReduce's host aggregator): each
prints one line when it listens, serves until SIGTERM, then prints its
report as its last stdout line.
"""
import os
import select
import time

SERVER_READY_S = 30.0
SERVER_EXIT_S = 10.0


def stderr_text(proc):
    """The last lines of a finished process's stderr, on one line."""
    try:
        err = proc.stderr.read() if proc.stderr and not proc.stderr.closed else b''
    except (OSError, ValueError):
        err = b''
    return ' / '.join(err.decode('utf8', 'replace').strip().splitlines()[-3:]) or 'no output'


def wait_listening(proc):
    """Waits for the server's first stdout line ({"listening": …}); None, or why it did not come."""
    fd = proc.stdout.fileno()
    got = b''
    deadline = time.monotonic() + SERVER_READY_S
    while b'\n' not in got:
        left = deadline - time.monotonic()
        if left <= 0:
            return 'did not listen within %.0f s' % SERVER_READY_S
        ready, _, _ = select.select([fd], [], [], min(left, 0.2))
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                return 'exited with code %s: %s' % (proc.wait(), stderr_text(proc))
            got += chunk
    return None


def stop_and_read(proc):
    """SIGTERM, then (its stdout after the listening line, None) once it exits 0, or (None, why not)."""
    if proc.poll() is None:
        proc.terminate()
    try:
        out, err = proc.communicate(timeout=SERVER_EXIT_S)
    except Exception:  # noqa: BLE001 - a server that does not stop is killed by the caller's stop_all
        return None, 'did not stop within %.0f s of SIGTERM' % SERVER_EXIT_S
    if proc.returncode != 0:
        return None, 'exited with code %s: %s' % (proc.returncode, err.decode('utf8', 'replace').strip()[-300:])
    return out.decode('utf8', 'replace'), None


def last_json_line(text):
    """The last line of `text` that is a JSON object, as text ('' when there is none)."""
    lines = [line for line in text.strip().splitlines() if line.startswith('{')]
    return lines[-1] if lines else ''
