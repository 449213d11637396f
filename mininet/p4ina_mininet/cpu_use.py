"""CPU time the P4 switch processes spend during a run, from /proc/PID/stat.

The switches, the agents and Mininet share the machine's cores; a run's time
says little until one knows whether the switch had a core to itself. Each
run gets, per switch process the testbed started, the user and system CPU it
used between the run's first agent start and its last agent's exit.
Softirq work the kernel does on a process's behalf (veth, qdisc) is not in
these counts on every kernel, so they are a lower bound.
"""
import os

_TICKS_PER_SECOND = os.sysconf('SC_CLK_TCK')


def process_cpu_ms(pid):
    """(user ms, system ms) of a live process, or None once it is gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            text = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: fields after the last ')' are fixed.
    fields = text[text.rindex(')') + 2:].split()
    # utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the name.
    return (int(fields[11]) * 1000.0 / _TICKS_PER_SECOND, int(fields[12]) * 1000.0 / _TICKS_PER_SECOND)


def switch_cpu_snapshot(switches):
    """{switch name: (pid, (user ms, system ms))} for every switch process that is running."""
    snapshot = {}
    for sw in switches:
        pid = sw.pid_started() if getattr(sw, 'pid_started', None) else None
        used = process_cpu_ms(pid) if pid else None
        if used is not None:
            snapshot[sw.name] = (pid, used)
    return snapshot


def switch_cpu_since(before):
    """[{switch, userMs, systemMs}]: what each switch in `before` used since, by name (a switch that ended is left out)."""
    spent = []
    for name, (pid, (user0, system0)) in sorted(before.items()):
        now = process_cpu_ms(pid)
        if now is not None:
            spent.append({'switch': name, 'userMs': round(now[0] - user0, 1), 'systemMs': round(now[1] - system0, 1)})
    return spent
