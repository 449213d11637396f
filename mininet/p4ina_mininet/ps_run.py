"""The parameter-server baseline on the testbed: its server (`p4ina agent
ps-server`) on a host that runs no worker, the first PS host, as ATP's PS;
then one worker (`p4ina agent ps-worker`) per worker host, all over the
kernel's TCP (host.popen).

The server listens before any worker starts, so a worker's time is its
AllReduce, not its wait for a server still starting. Once every worker has
its result the server gets SIGTERM and prints the rounds it served: a
server that fails, or that did not serve exactly one round, fails the run.
"""
import json
import os
import select
import time

from .agents import ps_server_argv, ps_worker_argv, run_workers, stop_all
from .lifeline import child_popen_kwargs

SERVER_READY_S = 30.0
SERVER_EXIT_S = 10.0


def _listening(proc):
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
                return 'exited with code %s: %s' % (proc.wait(), _stderr_text(proc))
            got += chunk
    return None


def _stderr_text(proc):
    try:
        err = proc.stderr.read() if proc.stderr and not proc.stderr.closed else b''
    except (OSError, ValueError):
        err = b''
    return ' / '.join(err.decode('utf8', 'replace').strip().splitlines()[-3:]) or 'no output'


def _server_exit(proc):
    """After the workers: SIGTERM, and the server's last line must say it served one round; else why not."""
    if proc.poll() is None:
        proc.terminate()
    try:
        out, err = proc.communicate(timeout=SERVER_EXIT_S)
    except Exception:  # noqa: BLE001 - a server that does not stop is killed by the caller's stop_all
        return 'did not stop within %.0f s of SIGTERM' % SERVER_EXIT_S
    if proc.returncode != 0:
        return 'exited with code %s: %s' % (proc.returncode, err.decode('utf8', 'replace').strip()[-300:])
    lines = out.decode('utf8', 'replace').strip().splitlines()
    try:
        rounds = json.loads(lines[-1]).get('rounds') if lines else None
    except ValueError:
        rounds = None
    if rounds != 1:
        return 'served %s rounds, not the one AllReduce of this run' % rounds
    return None


def run_ps(net, node, cli, server_host, worker_hosts, options, started_pids):
    """One AllReduce of the PS baseline. Returns the run as the runner's document has it: {algorithm, hosts,
    server, reports, failure}."""
    run = {'algorithm': 'ps', 'hosts': [h.name for h in worker_hosts], 'server': server_host.name, 'reports': [], 'failure': None}
    server = net.get(server_host.name).popen(ps_server_argv(node, cli, server_host, len(worker_hosts)), **child_popen_kwargs())
    started_pids.append(server.pid)
    try:
        why = _listening(server)
        if why:
            run['failure'] = 'the parameter server on %s %s' % (server_host.name, why)
            return run
        placed = [(h, ps_worker_argv(node, cli, server_host, rank, len(worker_hosts), options)) for rank, h in enumerate(worker_hosts)]
        workers = run_workers(net, 'ps', placed, options.timeout, started_pids)
        run.update(reports=workers['reports'], failure=workers['failure'])
        if run['failure'] is None:
            why = _server_exit(server)
            if why:
                run.update(reports=[], failure='the parameter server on %s %s' % (server_host.name, why))
        return run
    finally:
        stop_all([server])
        for stream in (server.stdout, server.stderr):
            if stream:
                stream.close()
