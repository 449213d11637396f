"""OmniReduce on the testbed (docs/omnireduce.md), in its two variants:

- `omnireduce`, the paper's: one host aggregator (`p4ina agent
  omnireduce-aggregator`, owning every slot) on a host that runs no worker,
  the first PS host, as ATP's PS; the INA switches only forward.
- `omnireduce-switch`: the INA switch runs p4/omnireduce.p4 (compiled for
  the switch block) and aggregates; no aggregator process.

The job spec goes to `p4ina controller apply` and the agents' arguments come
from its report (the plan the switches were programmed for), plus what only
the testbed decides: Mininet timing and the tensor. The aggregator listens
before any worker starts and gets SIGTERM once every worker has its result;
one that fails or does not stop fails the run.
"""
from .agents import run_workers, stop_all, tensor_args
from .lifeline import child_popen_kwargs
from .servers import stop_and_read, wait_listening

# OmniReduce's UDP block starts at 0xBEF0 (src/wire/ina-ports.ts): omnireduce.p4 aggregates what comes to its own
# address there. Workers and the host aggregator all use the first port, each on its own host.
OMNIREDUCE_UDP_PORT = 0xBEF0
# Job ids of their own, so that applying one never touches another run's job (SwitchML's 1, ATP's 1..15, Rina's 1).
JOB_IDS = {'omnireduce': 21, 'omnireduce-switch': 22}


def block_of(options, algorithm):
    return options.omnireduce_host_block if algorithm == 'omnireduce' else options.omnireduce_switch_block


def omnireduce_job_spec(options, algorithm, hosts, aggregator_host):
    """The job for `p4ina controller apply`: the job's slots are --pool, its block the variant's block."""
    spec = {'id': JOB_IDS[algorithm], 'name': 'testbed-%s' % algorithm, 'algorithm': 'omnireduce', 'pool_size': options.pool,
            'elements_per_packet': block_of(options, algorithm),
            'workers': [{'rank': rank, 'host': h.name, 'udp_port': OMNIREDUCE_UDP_PORT} for rank, h in enumerate(hosts)]}
    if algorithm == 'omnireduce-switch':
        spec['omnireduce'] = {'aggregator': 'switch'}
    else:
        spec['omnireduce'] = {'aggregator': 'hosts', 'shards': [{'host': aggregator_host.name, 'udp_port': OMNIREDUCE_UDP_PORT, 'slots': options.pool}]}
    return spec


def omnireduce_commands(node, cli, applied, options):
    """From the controller's report of one OmniReduce job: {aggregator (host or switch), blockSize, slots,
    aggregators: [(host, argv)], workers: [(host, argv)] by rank}; None when its plan does not run OmniReduce."""
    omr = applied.get('omnireduce')
    if not omr:
        return None
    where = [a['host'] for a in omr['aggregators']] or [p['switch'] for p in applied['aggregation']]
    run = ['--timing', 'mininet'] + tensor_args(options)
    return {
        'info': {'aggregator': ', '.join(where), 'blockSize': omr['blockSize'], 'slots': omr['slots']},
        'aggregators': [(a['host'], [node, cli, 'agent', 'omnireduce-aggregator'] + a['args'] + ['--json']) for a in omr['aggregators']],
        'workers': [(w['host'], [node, cli, 'agent', 'omnireduce-worker'] + w['args'] + run) for w in sorted(omr['workers'], key=lambda w: w['rank'])],
    }


def run_omnireduce(net, plan, algorithm, hosts, applied, commands, options, started_pids):
    """One OmniReduce AllReduce. Returns the run as the runner's document has it: {algorithm, hosts, reports, failure,
    omnireduce: {aggregator, blockSize, slots}}."""
    run = {'algorithm': algorithm, 'hosts': [h.name for h in hosts], 'reports': [], 'failure': None}
    if commands is None:
        run['failure'] = 'the controller\'s plan does not run OmniReduce (%s): %s' % (applied.get('runs'), ' '.join(applied.get('reasons', [])))
        return run
    run['omnireduce'] = commands['info']
    by_name = {h.name: h for h in plan.all_hosts}
    servers = []
    try:
        for host, argv in commands['aggregators']:
            proc = net.get(host).popen(argv, **child_popen_kwargs())
            started_pids.append(proc.pid)
            servers.append((host, proc))
            why = wait_listening(proc)
            if why:
                run['failure'] = 'the OmniReduce aggregator on %s %s' % (host, why)
                return run
        placed = [(by_name[host], argv) for host, argv in commands['workers']]
        workers = run_workers(net, algorithm, placed, options.timeout, started_pids)
        run.update(reports=workers['reports'], failure=workers['failure'])
        for host, proc in servers:
            _, why = stop_and_read(proc)
            if why and run['failure'] is None:
                run.update(reports=[], failure='the OmniReduce aggregator on %s %s' % (host, why))
        return run
    finally:
        stop_all([proc for _, proc in servers])
        for _, proc in servers:
            for stream in (proc.stdout, proc.stderr):
                if stream:
                    stream.close()
