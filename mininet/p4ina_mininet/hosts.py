"""What every testbed host needs before traffic flows through P4 switches,
and the ordinary-traffic checks (ping, a TCP transfer) run from the hosts.

Offloads off on each host interface: the switch reads frames off veths, so
checksums must be finished and frames no larger than the MTU. IPv6 off, so
no router solicitations crawl through a slow software switch. Static ARP
for every host and every switch address (the programs answer ARP for their
own address too; static entries just take a round trip out of each start).
"""
import hashlib
import os
import subprocess

OFFLOADS = ['tx', 'off', 'rx', 'off', 'sg', 'off', 'tso', 'off', 'gso', 'off', 'gro', 'off']
TCP_PORT = 45999
TCP_BYTES = 2 * 1024 * 1024


def prepare_hosts(net, plan):
    switch_addresses = [(s.ip, s.mac) for s in plan.switches if s.ip]
    for host in net.hosts:
        intf = host.defaultIntf().name
        host.cmd('ethtool -K %s %s' % (intf, ' '.join(OFFLOADS)))
        host.cmd('sysctl -q -w net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1')
        # A Rina ToR sends its rack's RING_DATA to the rack's agent from the agent's own address (docs/rina.md):
        # without accept_local the kernel drops a datagram whose source is one of its own addresses.
        host.cmd('sysctl -q -w net.ipv4.conf.all.accept_local=1 net.ipv4.conf.%s.accept_local=1' % intf)
        for ip, mac in switch_addresses:
            host.cmd('ip neigh replace %s lladdr %s dev %s nud permanent' % (ip, mac, intf))
    net.staticArp()


# Random drops in the host's own namespace, each way, on its link only: nftables' numgen, since
# netem (Mininet's loss=) is missing from some kernels and then Mininet only prints an error.
LOSS_RULES = """table inet p4ina_loss {
  chain egress { type filter hook output priority 0; policy accept; oifname "%(intf)s" numgen random mod 1000000 < %(ppm)d counter drop; }
  chain ingress { type filter hook input priority 0; policy accept; iifname "%(intf)s" numgen random mod 1000000 < %(ppm)d counter drop; }
}
"""


class HostSetupError(Exception):
    """Something the testbed needs on the hosts could not be set up."""


def apply_loss(net, loss):
    """Drops each IP packet to or from every host with probability `loss`."""
    for host in net.hosts:
        rules = LOSS_RULES % {'intf': host.defaultIntf().name, 'ppm': round(loss * 1000000)}
        proc = host.popen(['nft', '-f', '-'], stdin=subprocess.PIPE)
        _, err = proc.communicate(rules.encode('ascii'), timeout=10)
        if proc.returncode != 0:
            raise HostSetupError('--loss needs nftables in the hosts (apt-get install nftables): %s' % err.decode('utf8', 'replace').strip())


def packets_dropped(net):
    """Packets the loss rules dropped, over every host and both ways."""
    total = 0
    for host in net.hosts:
        listing = host.cmd('nft list table inet p4ina_loss 2>/dev/null')
        words = listing.split()
        total += sum(int(words[i + 1]) for i, w in enumerate(words[:-1]) if w == 'packets' and words[i + 1].isdigit())
    return total


def kernel_has_netem():
    """Whether tc can make a netem qdisc (Mininet's delay= needs it)."""
    return kernel_has_qdisc(['netem', 'delay', '1ms'])


def kernel_has_red_ecn():
    """Whether tc can make a RED qdisc that marks ECN (Mininet's enable_ecn=, for --ecn)."""
    return kernel_has_qdisc(['red', 'limit', '1000000', 'min', '30000', 'max', '35000', 'avpkt', '1500', 'burst', '20',
                             'bandwidth', '10mbit', 'probability', '1', 'ecn'])


def kernel_has_qdisc(qdisc):
    """Probed on a veth pair of our own (every kernel Mininet runs on has veths; not every one has dummy links)."""
    name = 'p4iq%d' % os.getpid()
    made = subprocess.run(['ip', 'link', 'add', name, 'type', 'veth', 'peer', 'name', name + 'p'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if made.returncode != 0:
        return False
    try:
        probe = subprocess.run(['tc', 'qdisc', 'add', 'dev', name, 'root'] + qdisc, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return probe.returncode == 0
    finally:
        subprocess.run(['ip', 'link', 'del', name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def ping_all(net, attempts=3, timeout_s=3):
    """Every ordered pair of hosts: reachable when one of `attempts` single pings is answered (a loaded
    machine can stall a software switch past one ping's timeout). Returns (pairs, pairs reachable, failed pairs)."""
    pairs = reached = 0
    failed = []
    for src in net.hosts:
        for dst in net.hosts:
            if src is dst:
                continue
            pairs += 1
            if any(_received(src.cmd('ping -c 1 -W %d -q %s' % (timeout_s, dst.IP()))) for _ in range(attempts)):
                reached += 1
            else:
                failed.append('%s->%s' % (src.name, dst.name))
    return pairs, reached, failed


def _received(ping_output):
    for line in ping_output.splitlines():
        if 'received' in line:
            for part in line.split(','):
                if 'received' in part:
                    return int(part.strip().split()[0])
    return 0


# Deterministic payload: the receiver's SHA-256 must equal the sender's.
SERVER = ('import hashlib,socket,sys\n'
          's=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(("0.0.0.0",%d));s.listen(1);s.settimeout(60)\n'
          'c,_=s.accept();c.settimeout(60);h=hashlib.sha256();n=0\n'
          'while True:\n d=c.recv(65536)\n if not d: break\n h.update(d);n+=len(d)\n'
          'print(n,h.hexdigest())\n')
CLIENT = ('import socket,time\n'
          'data=bytes(i%%251 for i in range(%d))\n'
          'for attempt in range(50):\n'
          ' try:\n  c=socket.create_connection(("%s",%d),timeout=5);break\n'
          ' except OSError: time.sleep(0.2)\n'
          'c.settimeout(60);c.sendall(data);c.close()\n')


def tcp_transfer(src, dst, python='/usr/bin/python3', size=TCP_BYTES, timeout_s=90):
    """Sends `size` bytes from src to dst over TCP; returns {bytes, sha256_ok, from, to}."""
    expected = hashlib.sha256(bytes(i % 251 for i in range(size))).hexdigest()
    server = dst.popen([python, '-c', SERVER % TCP_PORT])
    try:
        client = src.popen([python, '-c', CLIENT % (size, dst.IP(), TCP_PORT)])
        try:
            client.communicate(timeout=timeout_s)
        finally:
            if client.poll() is None:
                client.kill()
                client.wait()
        out, _ = server.communicate(timeout=timeout_s)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    fields = out.decode('utf8', 'replace').split()
    got = int(fields[0]) if fields and fields[0].isdigit() else 0
    return {'from': src.name, 'to': dst.name, 'bytes': got, 'ok': got == size and len(fields) > 1 and fields[1] == expected}
