"""The host agents of one algorithm, one process per host in that host's
namespace (host.popen), over the kernel's UDP (SwitchML) or TCP (ring, the
parameter-server baseline's workers).
Each prints one JSON report (--check --json); the runner hands the reports
to `p4ina testbed format`, which turns them into the demo's table.

All workers of a run start together; a run has a deadline, and a worker
that fails or outlives it stops the others (by their PIDs).
"""
import time

from .lifeline import child_popen_kwargs

SWITCHML_UDP_BASE = 40000
SWITCHML_SWITCH_PORT = 48864
RING_TCP_PORT = 45000
PS_TCP_PORT = 45100
HIERARCHICAL_TCP_PORT = 45200
# Rina's UDP block is 0xBF10..0xBF1F (src/wire/ina-ports.ts), which rina_tor.p4 recognises Rina by.
RINA_UDP_PORT = 0xBF11
# 64 KiB pieces: the server returns piece k while piece k+1 is still arriving, so its link carries both directions
# at once. The baseline's default (1 MiB) makes a 1 MiB tensor one piece, all up before anything comes down.
PS_PIECE_ELEMENTS = 16384


def tensor_args(options, seed=None):
    """The tensor every worker reduces, whatever its algorithm: length, seed, and the block sparsity (--sparsity,
    --pattern, --sparse-block), so dense and sparse algorithms reduce the very same data; then --check --json."""
    return ['--length', str(options.tensor // 4), '--seed', str(options.seed if seed is None else seed)] + options.sparsity_args + ['--check', '--json']


def switchml_argv(node, cli, host, rank, workers, aggregator_ip, options):
    return [node, cli, 'agent', 'switchml', '--transport', 'udp',
            '--local', '%s:%d' % (host.ip, SWITCHML_UDP_BASE + rank),
            '--switch', '%s:%d' % (aggregator_ip, SWITCHML_SWITCH_PORT),
            '--job', str(options.job_id), '--worker', str(rank), '--workers', str(workers),
            '--pool', str(options.pool), '--elements', str(options.switchml_elements), '--timing', 'mininet'] + tensor_args(options)


def switchml_job_spec(options, hosts):
    """The SwitchML job for `p4ina controller apply`: rank r on SWITCHML_UDP_BASE + r of its host, switchml.p4's values
    per packet (the controller refuses the job if the switches' P4Info says otherwise)."""
    return {'id': options.job_id, 'name': 'testbed', 'algorithm': 'switchml', 'pool_size': options.pool,
            'elements_per_packet': options.switchml_elements,
            'workers': [{'rank': rank, 'host': h.name, 'udp_port': SWITCHML_UDP_BASE + rank} for rank, h in enumerate(hosts)]}


def ring_argv(node, cli, hosts, rank, options):
    peers = ','.join('%s:%d' % (h.ip, RING_TCP_PORT) for h in hosts)
    return [node, cli, 'agent', 'ring', '--rank', str(rank), '--world', str(len(hosts)), '--peers', peers] + tensor_args(options)


def hierarchical_argv(node, cli, hosts, rank, options):
    """Hierarchical AllReduce over TCP: every rank's rack is its host's rack in the testbed."""
    peers = ','.join('%s:%d' % (h.ip, HIERARCHICAL_TCP_PORT) for h in hosts)
    racks = ','.join(str(h.rack) for h in hosts)
    return [node, cli, 'agent', 'hierarchical-worker', '--rank', str(rank), '--world', str(len(hosts)), '--peers', peers, '--racks', racks] + tensor_args(options)


def rina_job_spec(options, hosts):
    """The Rina job for `p4ina controller apply`: every worker on RINA_UDP_PORT of its host."""
    return {'id': options.job_id, 'name': 'testbed-rina', 'algorithm': 'rina', 'pool_size': options.pool,
            'workers': [{'rank': rank, 'host': h.name, 'udp_port': RINA_UDP_PORT} for rank, h in enumerate(hosts)]}


def rina_placed(node, cli, applied, hosts, options):
    """[(host plan, argv)] by rank: the ring and each worker's place from the controller's report (the plan the
    ToRs were programmed for), plus what only the testbed decides."""
    rina = applied.get('rina')
    if not rina:
        raise ValueError('the controller\'s report has no Rina worker arguments for job %s' % applied.get('id'))
    by_name = {h.name: h for h in hosts}
    run = ['--timing', 'mininet'] + tensor_args(options)
    return [(by_name[w['host']], [node, cli, 'agent', 'rina-worker'] + w['args'] + run) for w in sorted(rina['workers'], key=lambda w: w['rank'])]


def ps_server_argv(node, cli, server_host, workers):
    """The parameter-server baseline's server. No --rounds: with it the server closes its connections a second after
    writing the last result, which a slow link may not have carried by then (seen with 1 MiB pieces at 10 Mbit/s:
    a worker lost its result); the runner stops it with SIGTERM once every worker has its result."""
    return [node, cli, 'agent', 'ps-server', '--world', str(workers), '--listen', '%s:%d' % (server_host.ip, PS_TCP_PORT),
            '--piece-elements', str(PS_PIECE_ELEMENTS), '--json']


def ps_worker_argv(node, cli, server_host, rank, workers, options):
    return [node, cli, 'agent', 'ps-worker', '--rank', str(rank), '--world', str(workers), '--server', '%s:%d' % (server_host.ip, PS_TCP_PORT),
            '--piece-elements', str(PS_PIECE_ELEMENTS)] + tensor_args(options)


def run_workers(net, algorithm, placed, timeout_s, started_pids):
    """placed: [(host plan, argv)] by rank. Returns {algorithm, reports, failure}."""
    procs = []
    failure = None
    try:
        for plan_host, argv in placed:
            # A lifeline to the runner: the agent stops by itself if the runner dies without its teardown.
            proc = net.get(plan_host.name).popen(argv, **child_popen_kwargs())
            started_pids.append(proc.pid)
            procs.append((plan_host, proc))
        deadline = time.monotonic() + timeout_s
        outputs = [None] * len(procs)
        pending = set(range(len(procs)))
        while pending and failure is None:
            if time.monotonic() > deadline:
                stuck = sorted(pending)
                stop_all([procs[i][1] for i in stuck])
                tails = ['%s: %s' % (procs[i][0].name, _stderr_tail(procs[i][1])) for i in stuck]
                failure = 'no result within %d s (still running: %s)' % (timeout_s, ' | '.join(tails))
                break
            for i in sorted(pending):
                proc = procs[i][1]
                if proc.poll() is None:
                    continue
                out, err = proc.communicate()
                outputs[i] = out.decode('utf8', 'replace')
                pending.discard(i)
                if proc.returncode != 0:
                    last = err.decode('utf8', 'replace').strip().splitlines()[-5:]
                    failure = '%s (rank %d) exited with code %d: %s' % (procs[i][0].name, i, proc.returncode, ' | '.join(last))
            time.sleep(0.05)
        return {'algorithm': algorithm, 'reports': [o or '' for o in outputs] if failure is None else [], 'failure': failure}
    finally:
        stop_all([p for _, p in procs])
        for _, proc in procs:
            for stream in (proc.stdout, proc.stderr):
                if stream:
                    stream.close()


def _stderr_tail(proc, lines=3):
    try:
        err = proc.stderr.read() if proc.stderr and not proc.stderr.closed else b''
    except (OSError, ValueError):
        err = b''
    return ' / '.join(err.decode('utf8', 'replace').strip().splitlines()[-lines:]) or 'no output'


def stop_all(procs):
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        if proc.poll() is None:
            try:
                proc.wait(timeout=3)
            except Exception:  # noqa: BLE001 - escalate whatever went wrong
                proc.kill()
                proc.wait()
