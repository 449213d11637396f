"""`mininet/testbed.py` and `p4ina testbed`: parse the options, run the
testbed (runner.py), print its table through `p4ina testbed format`, and
tear down whatever happens: Ctrl-C, SIGTERM, or the Node parent's death
(its lifeline), once, ignoring further signals until the teardown is done.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import traceback

from . import lifeline
from .runner import Interrupted, Testbed, TestbedFailure

EXIT_INTERRUPTED = 130


def format_results(node, cli, repo, doc, as_json):
    """`p4ina testbed format`: the demo's table (or JSON) on our stdout; its exit code."""
    argv = [node, cli, 'testbed', 'format'] + (['--json'] if as_json else [])
    done = subprocess.run(argv, cwd=repo, input=json.dumps(doc).encode('utf8'))
    return done.returncode


def main(argv, repo):
    from mininet.log import setLogLevel

    from .options import parse

    options = parse(argv)
    if os.geteuid() != 0:
        sys.stderr.write('p4ina testbed: Mininet needs root: run it with sudo\n')
        return 2
    node = os.environ.get('P4INA_NODE') or shutil.which('node') or 'node'
    cli = os.environ.get('P4INA_CLI') or os.path.join(repo, 'dist', 'src', 'cli', 'main.js')
    if not os.path.exists(cli):
        sys.stderr.write('p4ina testbed: %s is missing; build first (npm run build)\n' % cli)
        return 2
    # Mininet's CLI answers at its 'output' level: needed with --keep, noise otherwise.
    setLogLevel('info' if options.verbose else 'output' if options.keep else 'warning')
    testbed = Testbed(options, node, cli, repo)
    interrupted = []

    def on_signal(signum, _frame):
        # Once: a second Ctrl-C must not cut the teardown short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        interrupted.append(signum)
        raise Interrupted()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    # Started by `p4ina testbed`: if Node dies (even kill -9), tear down as on SIGTERM.
    lifeline.watch(lambda: os.kill(os.getpid(), signal.SIGTERM))
    code = 1
    try:
        doc = testbed.run()
        code = format_results(node, cli, repo, doc, options.json)
        if options.keep:
            testbed.keep()
    except Interrupted:
        sys.stderr.write('p4ina testbed: interrupted; tearing down\n')
        code = EXIT_INTERRUPTED
    except TestbedFailure as err:
        sys.stderr.write('p4ina testbed: %s\n' % err)
        code = 1
    except Exception as err:  # noqa: BLE001 - a bug or an environment problem: say it, then tear down
        if options.verbose:
            traceback.print_exc()
        sys.stderr.write('p4ina testbed: unexpected %s: %s (--verbose shows where)\n' % (type(err).__name__, err))
        code = 1
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        testbed.teardown()
    return code
