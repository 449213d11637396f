"""The runner's command line: the same for `mininet/testbed.py` and `p4ina testbed`."""
import argparse
import re

SIZE = re.compile(r'^(\d+(?:\.\d+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)?$')
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


def positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError('"%s": a positive whole number' % text)
    return int(text)


def pair(text):
    parts = text.split(',')
    if len(parts) != 2:
        raise argparse.ArgumentTypeError('"%s": give CONFIG.json,P4INFO' % text)
    return parts


def build_parser():
    p = argparse.ArgumentParser(
        prog='p4ina testbed',
        description='A Mininet testbed of P4 switches (p4ina switch or BMv2) and hosts: runs SwitchML and the ring '
                    'baseline on it, prints the demo\'s table, and tears everything down. Run as root.')
    p.add_argument('--topo', default='single,hosts=4', help='single,hosts=K | leafspine,racks=R,hosts=H,spines=S (default single,hosts=4)')
    p.add_argument('--ina-tors', default='all', help='which racks\' ToRs run switchml.p4: 1,3 | all | none (default all)')
    p.add_argument('--legacy', choices=['bridge', 'p4'], default='bridge', help='non-INA ToRs: Linux bridges, or p4ina switches running p4/forward.p4 (default bridge)')
    p.add_argument('--spine', choices=['p4', 'bridge'], default='p4', help='spines: p4ina switches running forward.p4, or Linux bridges (default p4)')
    p.add_argument('--job', choices=['switchml', 'ring', 'both'], default='both', help='what to run (default both, side by side)')
    p.add_argument('--workers', default='auto', help='hosts of the SwitchML job: auto (every host on a single switch; '
                   'else the first INA rack), rack=N, or names h1,h2 (default auto); ring runs on every host unless names are given')
    p.add_argument('--tensor', type=tensor_size, default=tensor_size('1MiB'), help='bytes of float32 per worker (default 1MiB)')
    p.add_argument('--pool', type=positive, default=32, help='SwitchML slots = each worker\'s window (default 32)')
    p.add_argument('--seed', default='1', help='seed of the tensors (default 1)')
    p.add_argument('--loss', type=fraction, default=0.0, help='netem loss on every host link, each way (0..0.5)')
    p.add_argument('--bw', type=float, default=None, help='bandwidth of every link, Mbit/s (TCLink)')
    p.add_argument('--delay', default=None, help='delay of every link, e.g. 1ms (TCLink)')
    p.add_argument('--traffic', action='store_true', help='also check ordinary traffic: ping between every pair of hosts, a TCP transfer')
    p.add_argument('--timeout', type=positive, default=300, help='seconds each run may take (default 300)')
    p.add_argument('--prefix', default='p4i', help='prefix of every node name, so our interfaces never clash (default p4i)')
    p.add_argument('--pcap', default=None, help='record every switch port to DIR/*.pcap')
    p.add_argument('--logs', default=None, help='keep the switches\' logs and the generated files in DIR (default: a temp dir, removed)')
    p.add_argument('--target', choices=['p4ina', 'bmv2'], default='p4ina', help='P4 switches: p4ina\'s emulator or BMv2\'s simple_switch_grpc')
    p.add_argument('--bmv2-switchml', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/switchml.p4 (with --target bmv2)')
    p.add_argument('--bmv2-forward', type=pair, default=None, metavar='JSON,P4INFO', help='p4c outputs of p4/forward.p4 (with --target bmv2 and P4 legacy switches)')
    p.add_argument('--bmv2-binary', default='simple_switch_grpc', help='BMv2\'s binary (default simple_switch_grpc on PATH)')
    p.add_argument('--keep', action='store_true', help='after the runs, leave the network up in Mininet\'s CLI; exit it to tear down')
    p.add_argument('--json', action='store_true', help='print one JSON document instead of the table')
    p.add_argument('--verbose', action='store_true', help='Mininet\'s info messages and the controller\'s report on stderr')
    return p


def parse(argv):
    options = build_parser().parse_args(argv)
    options.job_id = 1
    if not re.match(r'^[a-z][a-z0-9]{0,5}$', options.prefix):
        build_parser().error('--prefix: 1 to 6 lower-case letters or digits, starting with a letter (interface names are at most 15 characters)')
    if options.target == 'bmv2' and options.bmv2_switchml is None:
        build_parser().error('--target bmv2 needs --bmv2-switchml JSON,P4INFO (p4c-bm2-ss outputs of p4/switchml.p4; see README)')
    return options
