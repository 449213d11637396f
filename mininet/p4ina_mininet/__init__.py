"""p4ina's Mininet testbeds: switch classes (p4ina's emulator, BMv2), topologies
written both as Mininet topologies and as the controller's topology file, and
the runner behind `p4ina testbed` / `mininet/testbed.py`.

Needs Debian's /usr/bin/python3 (where the `mininet` module is) and root.
"""
