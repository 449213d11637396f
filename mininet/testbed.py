#!/usr/bin/python3
"""A p4ina Mininet testbed in one command (the same as `p4ina testbed`):

    sudo /usr/bin/python3 mininet/testbed.py --topo leafspine,racks=2,hosts=2,spines=1 \\
        --ina-tors 1 --job switchml --tensor 16MiB

`--help` lists the options; mininet/README.md explains the pieces.
"""
import os
import sys

# No __pycache__ in the checkout (root would own it).
sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
# This directory is called mininet/ too: make sure `import mininet` finds Mininet, not us.
sys.path[:] = [p for p in sys.path if os.path.abspath(p or '.') != HERE]
sys.path.append(HERE)

from p4ina_mininet.main import main  # noqa: E402

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:], os.path.dirname(HERE)))
