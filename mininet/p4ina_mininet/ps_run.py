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

from .agents import ps_server_argv, ps_worker_argv, run_workers, stop_all
from .lifeline import child_popen_kwargs
from .servers import last_json_line, stop_and_read, wait_listening


def _server_exit(proc):
    """After the workers: SIGTERM, and the server's last line must say it served one round; else why not."""
    out, why = stop_and_read(proc)
    if why:
        return why
    try:
        rounds = json.loads(last_json_line(out)).get('rounds')
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
        why = wait_listening(server)
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
