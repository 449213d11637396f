"""ATP jobs on the testbed (docs/atp.md): the job specs the runner hands to
`p4ina controller apply`, and the agents' command lines, which come from the
controller's own report (each ATP job's `atp.ps.args` and `atp.workers[].args`,
made from the same rollout plan the switches were programmed from), plus what
only the testbed decides: the tensor, the seed, Mininet timing, JSON output.

With --jobs N every worker host runs one worker of each job: job j's workers
listen on UDP port 0xBF00 + j on their hosts, and its parameter server on
0xBF00 on a host of its own (PREFIXpsJ). So every job spans the same racks
(and the same mix of INA and legacy ToRs) and contends for the same pool, and
each row of the table is comparable with a single job's.
"""
from .agents import tensor_args

ATP_FIRST_PORT = 0xBF00
# The ATP agents' Mininet timing (src/agent/atp/atp-options.ts, ATP_MININET_TIMING), written into the spec so
# that the controller's reclaim time covers the workers' longest resend timeout; the workers get --timing mininet.
MININET_TIMEOUTS = {'timeout_ms': 50, 'backoff_factor': 2, 'min_timeout_ms': 10, 'max_timeout_ms': 2000, 'max_retries': 30}


def job_seed(seed, job):
    """Job 1 reduces the --seed tensors; job j > 1 others, so that no job could pass with another job's sums."""
    return str(seed) if job == 1 else '%s/job%d' % (seed, job)


def atp_job_specs(options, worker_hosts, ps_hosts):
    """One job spec (docs/topology.md, job specs) per ATP job, ids 1..N."""
    specs = []
    for job in range(1, options.atp_jobs + 1):
        spec = {
            'id': job, 'name': 'testbed-atp-%d' % job, 'algorithm': 'atp', 'pool_size': options.pool,
            'workers': [{'rank': rank, 'host': h.name, 'udp_port': ATP_FIRST_PORT + job} for rank, h in enumerate(worker_hosts)],
            'parameter_server': {'host': ps_hosts[job - 1].name, 'udp_port': ATP_FIRST_PORT},
            'timeouts': dict(MININET_TIMEOUTS),
            'atp': {'value_range': options.value_range},
        }
        if options.ecn:
            spec['atp']['ecn_threshold'] = options.ecn_threshold
        specs.append(spec)
    return specs


def atp_commands(node, cli, applied, options):
    """From one ATP job of the controller's report: {job, level0, level1, ps: (host, argv), workers: [(host, argv)] by rank}."""
    atp = applied.get('atp')
    if not atp:
        raise ValueError('the controller\'s report has no agent arguments for ATP job %s' % applied.get('id'))
    job = applied['id']
    # --ecn: the agents also read CE in the IPv4 headers (a raw socket beside the UDP one; the hosts run as root),
    # so that a mark from any hop counts, not only the ATP ecn bit an ATP switch sets.
    ecn_ip = ['--ecn-ip'] if options.ecn else []
    tensor = ['--timing', 'mininet'] + tensor_args(options, job_seed(options.seed, job))
    workers = sorted(atp['workers'], key=lambda w: w['rank'])
    return {
        'job': job,
        'level0': atp['level0'],
        'level1': atp.get('level1'),
        'ps': (atp['ps']['host'], [node, cli, 'agent', 'atp-ps'] + atp['ps']['args'] + ecn_ip + ['--json']),
        'workers': [(w['host'], [node, cli, 'agent', 'atp-worker'] + w['args'] + ecn_ip + tensor) for w in workers],
    }
