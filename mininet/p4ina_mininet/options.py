"""The runner's command line: the same for `mininet/testbed.py` and `p4ina testbed`."""
import argparse
import re

SIZE = re.compile(r'^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)?$')
# The order runs go in.
ALGORITHMS = ['switchml', 'atp', 'rina', 'omnireduce', 'omnireduce-switch', 'ps', 'ring', 'hierarchical']
# Each needs its own program on the INA ToRs from the start (ATP's and Rina's hosts are set up for it), so at most one
# of them runs; omnireduce-switch reprograms the INA ToRs to omnireduce.p4 for its own run, after theirs.
INA_ALGORITHMS = ['switchml', 'atp', 'rina']
SPARSITY_PATTERNS = ['random', 'clustered', 'per-worker', 'shared']
# The workers' default pattern block (src/agent/baseline/sparse-tensor.ts, DEFAULT_SPARSE_BLOCK).
DEFAULT_SPARSE_BLOCK = 256
# OmniReduce's host block is the sparse block, at most what fits a 1500-byte MTU; omnireduce.p4 takes 8..128, a multiple of 8.
OMNIREDUCE_HOST_MAX_BLOCK = 365
OMNIREDUCE_SWITCH_MAX_BLOCK = 128
# ATP's UDP block is 0xBF00..0xBF0F: each PS listens on the first port, job j's workers on first + j.
MAX_ATP_JOBS = 15
# SwitchML's own packet size, and the most int32 values that fit a 1500-byte MTU after IPv4, UDP and SwitchML's header
# (src/controller/job.ts, maxElementsPerPacket('switchml')); switchml.p4 takes any of them as -DSWITCHML_ELEMENTS.
SWITCHML_DEFAULT_ELEMENTS = 64
SWITCHML_MAX_ELEMENTS = 364
DEFAULT_POOL = {'switchml': 32, 'atp': 256, 'rina': 64, 'omnireduce': 64}
UNITS = {None: 1, 'B': 1, 'KB': 1000, 'MB': 1000 ** 2, 'GB': 1000 ** 3, 'KiB': 1024, 'MiB': 1024 ** 2, 'GiB': 1024 ** 3}


def tensor_size(text):
    m = SIZE.match(text.strip())
    if not m:
        raise argparse.ArgumentTypeError('"%s": write a size such as 16MiB, 256KiB or 1048576' % text)
    size = int(float(m.group(1)) * UNITS[m.group(2)])
    if size < 4 or size % 4 or size > 1024 ** 3:
        raise argparse.ArgumentTypeError('"%s": a whole number of float32 values (a multiple of 4 bytes), at most 1 GiB' % text)
    return size


def fraction(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError('"%s" is not a number' % text)
    if not 0 <= value <= 0.5:
        raise argparse.ArgumentTypeError('loss is a probability from 0 to 0.5, not %s' % text)
    return value


def share(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError('"%s" is not a number' % text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError('--sparsity is the share of all-zero blocks, 0 to 1 (0.9: one block in ten has values), not %s' % text)
    return value


def positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError('"%s": a positive whole number' % text)
    return int(text)


def values_per_packet(text):
    if not text.isdigit() or not 1 <= int(text) <= SWITCHML_MAX_ELEMENTS:
        raise argparse.ArgumentTypeError('"%s": values per SwitchML packet, a whole number from 1 to %d (%d is the most a 1500-byte MTU takes)'
                                         % (text, SWITCHML_MAX_ELEMENTS, SWITCHML_MAX_ELEMENTS))
    return int(text)


def job_list(text):
    """'switchml', 'atp,ps,ring', 'both' (= switchml,ring) → the algorithms in the order they run."""
    names = ['switchml', 'ring'] if text == 'both' else [n.strip() for n in text.split(',') if n.strip()]
    unknown = [n for n in names if n not in ALGORITHMS]
    if not names or unknown:
        raise argparse.ArgumentTypeError('"%s": give %s or a comma list of them (both = switchml,ring)' % (text, ', '.join(ALGORITHMS)))
    ina = [n for n in INA_ALGORITHMS if n in names]
    if len(ina) > 1:
        raise argparse.ArgumentTypeError('%s cannot run together: INA switches run one program (p4/switchml.p4, p4/atp.p4 or p4/rina_tor.p4)' % ' and '.join(ina))
    return sorted(set(names), key=ALGORITHMS.index)


def pair(text):
    parts = text.split(',')
    if len(parts) != 2:
        raise argparse.ArgumentTypeError('"%s": give CONFIG.json,P4INFO' % text)
    return parts


def build_parser():
    p = argparse.ArgumentParser(
        prog='p4ina testbed',
        description='A Mininet testbed of P4 switches (p4ina switch or BMv2) and hosts: runs SwitchML, ATP, Rina, OmniReduce and the '
                    'parameter-server, ring and hierarchical baselines on it, prints the demo\'s table, and tears everything down. Run as root.')
    p.add_argument('--topo', default='single,hosts=4', help='single,hosts=K | leafspine,racks=R,hosts=H,spines=S (default single,hosts=4)')
    p.add_argument('--ina-tors', default='all', help='which racks\' ToRs aggregate (switchml.p4, atp.p4 with --job atp, rina_tor.p4 with --job rina, '
                   'omnireduce.p4 from the omnireduce-switch run on): '
                   '1,3 | all | none (default all)')
    p.add_argument('--legacy', choices=['bridge', 'p4'], default='bridge', help='non-INA ToRs: Linux bridges, or p4ina switches running p4/forward.p4 (default bridge)')
    p.add_argument('--spine', choices=['p4', 'bridge', 'ina'], default='p4', help='spines: p4ina switches running forward.p4, Linux bridges, '
                   'or INA switches running the INA program (ATP: level 1 when on every path to the PS) (default p4)')
    p.add_argument('--job', type=job_list, default=job_list('both'), metavar='ALGORITHMS',
                   help='what to run: switchml, atp, rina (ring AllReduce, an INA rack one member), omnireduce (block-sparse, one host '
                        'aggregator on a host of its own), omnireduce-switch (the INA switch aggregates, running omnireduce.p4), ps (the parameter-server baseline over '
                        'TCP, its server on a host of its own), ring, hierarchical (TCP: reduce in the rack, ring among rack leaders, '
                        'broadcast), or a comma list (atp,ps,ring); both = switchml,ring (the default), side by side')
    p.add_argument('--jobs', type=positive, default=1, help='ATP jobs at once on the same switches and pool (1..%d, default 1): '
                   'every worker host runs one worker of each, each job has a PS host of its own' % MAX_ATP_JOBS)
    p.add_argument('--workers', default='auto', help='hosts of the SwitchML job: auto (every host on a single switch; '
                   'else the first INA rack), rack=N, or names h1,h2 (default auto); ring, ATP and PS run on every host unless names are given')
    p.add_argument('--tensor', type=tensor_size, default=tensor_size('1MiB'), help='bytes of float32 per worker (default 1MiB)')
    p.add_argument('--pool', type=positive, default=None, help='SwitchML slots = each worker\'s window (default 32); ATP: aggregators '
                   'of the shared pool every job hashes over (default 256); Rina: slots per INA ToR (default 64); OmniReduce: the job\'s slots, '
                   'the blocks in flight per worker (default the INA algorithm\'s, alone 64)')
    p.add_argument('--elements', type=values_per_packet, default=None, metavar='E', help='int32 values per SwitchML packet, 1..%d (default %d, SwitchML\'s own): '
                   'switchml.p4 is compiled with -DSWITCHML_ELEMENTS=E, and the job and its workers use E (with --job switchml; '
                   'with --target bmv2, --bmv2-switchml must be compiled with it)' % (SWITCHML_MAX_ELEMENTS, SWITCHML_DEFAULT_ELEMENTS))
    p.add_argument('--seed', default='1', help='seed of the tensors (default 1)')
    p.add_argument('--sparsity', type=share, default=None, help='share of each worker\'s tensor blocks that are all zero, 0..1, for every '
                   'algorithm\'s workers, so dense algorithms reduce the same tensors as OmniReduce (default: dense)')
    p.add_argument('--pattern', choices=SPARSITY_PATTERNS, default=None, help='which blocks are zero: random, clustered, per-worker or shared '
                   '(default random; docs/omnireduce.md)')
    p.add_argument('--sparse-block', type=positive, default=None, help='elements per block of the pattern (default %d); OmniReduce\'s host '
                   'block is this (at most %d), the switch\'s the largest multiple of 8 up to %d that divides it'
                   % (DEFAULT_SPARSE_BLOCK, OMNIREDUCE_HOST_MAX_BLOCK, OMNIREDUCE_SWITCH_MAX_BLOCK))
    p.add_argument('--loss', type=fraction, default=0.0, help='netem loss on every host link, each way (0..0.5)')
    p.add_argument('--bw', type=float, default=None, help='bandwidth of every link, Mbit/s (TCLink)')
    p.add_argument('--delay', default=None, help='delay of every link, e.g. 1ms (TCLink)')
    p.add_argument('--value-range', type=float, default=256.0, help='ATP\'s fixed-point range: larger values go as float32 and the PS sums '
                   'their packets (default 256, which the seeded tensors stay within; ATP\'s own 213 sends most packets to the PS)')
    p.add_argument('--ecn', action='store_true', help='ATP with ECN: the switches mark at --ecn-threshold packets of egress queue '
                   '(queues build at --bw, which it needs), and RED with ECN on every link when the kernel has it')
    p.add_argument('--ecn-threshold', type=positive, default=8, help='queue depth in packets at which the switches mark (default 8; with --ecn)')
    p.add_argument('--queue-depth', type=positive, default=None, help='egress queue capacity of p4ina switches\' ports in packets '
                   '(tail drop past it; default the switch\'s 64); the ports\' rate is their link\'s --bw')
    p.add_argument('--traffic', action='store_true', help='also check ordinary traffic: ping between every pair of hosts, a TCP transfer')
    p.add_argument('--timeout', type=positive, default=300, help='seconds each run may take (default 300)')
    p.add_argument('--prefix', default='p4i', help='prefix of every node name, so our interfaces never clash (default p4i)')
    p.add_argument('--pcap', default=None, help='record every switch port to DIR/*.pcap')
    p.add_argument('--logs', default=None, help='keep the switches\' logs and the generated files in DIR (default: a temp dir, removed)')
    p.add_argument('--target', choices=['p4ina', 'bmv2'], default='p4ina', help='P4 switches: p4ina\'s emulator or BMv2\'s simple_switch_grpc')
    p.add_argument('--bmv2-switchml', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/switchml.p4 (with --target bmv2), '
                   'compiled with -DSWITCHML_ELEMENTS=E for --elements E (the controller refuses a job whose values per packet differ)')
    p.add_argument('--bmv2-atp', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/atp.p4 (with --target bmv2 and --job atp)')
    p.add_argument('--bmv2-rina', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/rina_tor.p4 (with --target bmv2 and --job rina)')
    p.add_argument('--bmv2-omnireduce', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/omnireduce.p4 compiled with '
                   '-DOMNIREDUCE_BLOCK= the switch block (128 for --sparse-block 256) (with --target bmv2 and --job omnireduce-switch)')
    p.add_argument('--bmv2-forward', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/forward.p4 (with --target bmv2 and P4 legacy switches)')
    p.add_argument('--bmv2-binary', default='simple_switch_grpc', help='BMv2\'s binary (default simple_switch_grpc on PATH)')
    p.add_argument('--keep', action='store_true', help='after the runs, leave the network up in Mininet\'s CLI; exit it to tear down')
    p.add_argument('--json', action='store_true', help='print one JSON document instead of the table')
    p.add_argument('--verbose', action='store_true', help='Mininet\'s info messages and the controller\'s report on stderr')
    return p


def parse(argv):
    options = build_parser().parse_args(argv)
    options.job_id = 1
    error = build_parser().error
    options.atp_jobs = options.jobs if 'atp' in options.job else 0
    # Hosts that run no worker: one per ATP job's PS; the PS baseline's server takes the first (runs go one at a time).
    options.server_hosts = max(options.atp_jobs, 1 if 'ps' in options.job or 'omnireduce' in options.job else 0)
    if options.jobs > 1 and 'atp' not in options.job:
        error('--jobs runs several ATP jobs: add --job atp')
    if options.jobs > MAX_ATP_JOBS:
        error('--jobs: at most %d ATP jobs (their workers\' ports share ATP\'s block of 16 UDP ports)' % MAX_ATP_JOBS)
    if options.ecn and 'atp' not in options.job:
        error('--ecn marks ATP packets: add --job atp')
    if options.ecn and not options.bw:
        error('--ecn needs --bw (Mbit/s): queues, and so marks, only build where a link has a rate')
    if options.elements is not None and 'switchml' not in options.job:
        error('--elements sets SwitchML\'s values per packet: add switchml to --job or leave --elements out')
    options.switchml_elements = options.elements or SWITCHML_DEFAULT_ELEMENTS
    if not 0 < options.value_range < float('inf'):
        error('--value-range: a positive number')
    if options.pool is None:
        options.pool = DEFAULT_POOL[next((n for n in INA_ALGORITHMS if n in options.job), 'omnireduce' if omnireduce_in(options.job) else 'switchml')]
    parse_sparsity(options, error)
    if not re.match(r'^[a-z][a-z0-9]{0,5}$', options.prefix):
        error('--prefix: 1 to 6 lower-case letters or digits, starting with a letter (interface names are at most 15 characters)')
    if options.target == 'bmv2' and 'rina' in options.job and options.bmv2_rina is None:
        error('--target bmv2 with --job rina needs --bmv2-rina JSON,P4INFO (p4c-bm2-ss outputs of p4/rina_tor.p4; see README)')
    # INA ToRs start with switchml.p4 unless ATP, Rina or only omnireduce-switch needs another (also for ring or PS alone).
    if options.target == 'bmv2' and first_ina_program(options.job) == 'switchml' and options.bmv2_switchml is None:
        error('--target bmv2 needs --bmv2-switchml JSON,P4INFO (p4c-bm2-ss outputs of p4/switchml.p4%s; see README)'
              % (' compiled with -DSWITCHML_ELEMENTS=%d' % options.elements if options.elements else ''))
    if options.target == 'bmv2' and 'omnireduce-switch' in options.job and options.bmv2_omnireduce is None:
        error('--target bmv2 with --job omnireduce-switch needs --bmv2-omnireduce JSON,P4INFO (p4c-bm2-ss outputs of p4/omnireduce.p4 '
              'with -DOMNIREDUCE_BLOCK=%d; see README)' % options.omnireduce_switch_block)
    if options.target == 'bmv2' and 'atp' in options.job and options.bmv2_atp is None:
        error('--target bmv2 with --job atp needs --bmv2-atp JSON,P4INFO (p4c-bm2-ss outputs of p4/atp.p4; see README)')
    return options


def first_ina_program(job):
    """The program the INA switches start with (p4/NAME.p4): the one ATP or Rina needs, else SwitchML's, unless
    omnireduce-switch is the only INA run; omnireduce-switch reprograms them to omnireduce.p4 when its run comes."""
    if 'atp' in job:
        return 'atp'
    if 'rina' in job:
        return 'rina_tor'
    if 'omnireduce-switch' in job and 'switchml' not in job:
        return 'omnireduce'
    return 'switchml'


def decimal(value):
    """0.9 → '0.9', 1e-05 → '0.00001': the workers take plain decimals only."""
    return ('%.12f' % value).rstrip('0').rstrip('.') or '0'


def omnireduce_in(job):
    return 'omnireduce' in job or 'omnireduce-switch' in job


def switch_block(sparse_block):
    """omnireduce.p4's block: the largest multiple of 8 up to 128 that divides the sparse block (so every zero block of the
    pattern is whole switch blocks), as the demo chooses it; None when there is none."""
    for block in range(min(OMNIREDUCE_SWITCH_MAX_BLOCK, sparse_block - sparse_block % 8), 7, -8):
        if sparse_block % block == 0:
            return block
    return None


def parse_sparsity(options, error):
    """options.sparsity_args: what every worker gets (all three, so OmniReduce's workers, whose pattern block would
    otherwise be their own block size, draw the same tensors); options.omnireduce_host_block and _switch_block."""
    given = options.sparsity is not None or options.pattern is not None or options.sparse_block is not None
    block = options.sparse_block or DEFAULT_SPARSE_BLOCK
    if block > 0xffff:
        error('--sparse-block: at most 65535 elements')
    options.sparsity_args = ['--sparsity', decimal(options.sparsity or 0.0), '--pattern', options.pattern or 'random', '--sparse-block', str(block)] if given else []
    options.omnireduce_host_block = block
    options.omnireduce_switch_block = switch_block(block)
    if 'omnireduce' in options.job and block > OMNIREDUCE_HOST_MAX_BLOCK:
        error('--job omnireduce: its block is --sparse-block, which is %d; at most %d fits a 1500-byte MTU' % (block, OMNIREDUCE_HOST_MAX_BLOCK))
    if 'omnireduce-switch' in options.job and options.omnireduce_switch_block is None:
        error('--job omnireduce-switch: omnireduce.p4 takes blocks of 8 to %d elements (a multiple of 8) and none divides --sparse-block %d; '
              'choose a multiple of 8' % (OMNIREDUCE_SWITCH_MAX_BLOCK, block))
