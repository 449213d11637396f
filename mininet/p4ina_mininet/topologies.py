"""Testbed topologies on paper: `single` (k hosts on one switch) and
`leafspine` (racks of hosts under ToRs, spines above), with each switch's
kind: "ina" (runs switchml.p4 or atp.p4, has an address), "p4" (a legacy
switch running forward.p4) or "bridge" (a Linux bridge). The same plan becomes a Mininet
topology (mininet_topo) and the controller's topology file (topology_json,
docs/topology.md), so the two always agree on names and port numbers.

Addresses live only inside the hosts' namespaces: host h of rack r is
10.0.r.h/8 with MAC 08:00:00:00:rr:hh; an INA ToR is 10.0.r.254,
02:00:00:00:rr:fe, an INA spine k 10.0.0.(200+k), 02:00:00:00:00:kk. Names carry a prefix so that the switches' interfaces in
the root namespace (PREFIXt1-eth1) cannot clash with anyone else's.

ATP parameter servers (one per ATP job) get hosts of their own, PREFIXps1,
PREFIXps2, …, which never run workers: on a single switch they take the
next ports after the workers' hosts; on a leaf-spine they form a rack of
their own (rack R+1) under a legacy ToR, because a level-0 ToR must not lie
between the PS and another rack's workers (docs/atp.md, "Roles and levels"):
a PS inside an INA rack would stop that rack from aggregating.
"""
from collections import namedtuple

HostPlan = namedtuple('HostPlan', 'name rack index ip mac')
SwitchPlan = namedtuple('SwitchPlan', 'name role rack kind ip mac')
LinkPlan = namedtuple('LinkPlan', 'a port_a b port_b host_link')


class TopologyError(Exception):
    """A --topo or --ina-tors the runner cannot build."""


class TestbedPlan:
    def __init__(self, kind, hosts, switches, links, ps_hosts=()):
        self.kind = kind
        self.hosts = hosts
        self.switches = switches
        self.links = links
        self.ps_hosts = list(ps_hosts)

    @property
    def all_hosts(self):
        """Worker hosts, then the parameter servers' hosts."""
        return self.hosts + self.ps_hosts

    def switch(self, name):
        return next(s for s in self.switches if s.name == name)

    def hosts_of_rack(self, rack):
        return [h for h in self.hosts if h.rack == rack]

    def tor_of_rack(self, rack):
        return next(s for s in self.switches if s.role == 'tor' and s.rack == rack)


def parse_topo(text):
    """'single,hosts=4' or 'leafspine,racks=2,hosts=2,spines=1' → (kind, {key: int})."""
    parts = [p.strip() for p in text.split(',') if p.strip()]
    if not parts or parts[0] not in ('single', 'leafspine'):
        raise TopologyError('--topo: start with "single" or "leafspine", e.g. single,hosts=4 or leafspine,racks=2,hosts=2,spines=1')
    kind = parts[0]
    allowed = {'single': {'hosts': 4}, 'leafspine': {'racks': 2, 'hosts': 2, 'spines': 1}}[kind]
    values = dict(allowed)
    for part in parts[1:]:
        key, sep, value = part.partition('=')
        if not sep or key not in allowed:
            raise TopologyError('--topo %s: unknown setting "%s"; %s takes %s' % (text, part, kind, ', '.join('%s=N' % k for k in allowed)))
        if not value.isdigit() or not 1 <= int(value) <= 32:
            raise TopologyError('--topo %s: %s must be a whole number from 1 to 32' % (text, key))
        values[key] = int(value)
    return kind, values


def parse_rack_list(text, racks):
    """'1,3', 'all' or 'none' → the set of rack numbers."""
    if text == 'all':
        return set(range(1, racks + 1))
    if text in ('none', ''):
        return set()
    chosen = set()
    for part in text.split(','):
        if not part.strip().isdigit() or not 1 <= int(part) <= racks:
            raise TopologyError('--ina-tors: "%s" is not a rack from 1 to %d (or write all / none)' % (part, racks))
        chosen.add(int(part))
    return chosen


def _host(prefix, rack, index, number, kind='h'):
    return HostPlan('%s%s%d' % (prefix, kind, number), rack, index, '10.0.%d.%d' % (rack, index), '08:00:00:00:%02x:%02x' % (rack, index))


def _tor(name, rack, kind):
    if kind == 'ina':
        return SwitchPlan(name, 'tor', rack, 'ina', '10.0.%d.254' % rack, '02:00:00:00:%02x:fe' % rack)
    return SwitchPlan(name, 'tor', rack, kind, None, None)


def _spine(name, k, kind):
    if kind == 'ina':
        return SwitchPlan(name, 'spine', None, 'ina', '10.0.0.%d' % (200 + k), '02:00:00:00:00:%02x' % k)
    return SwitchPlan(name, 'spine', None, kind, None, None)


def plan_single(prefix, hosts, ina=True, legacy='p4', ps=0):
    """ps: parameter-server hosts, on the ports after the workers' hosts."""
    sw = _tor('%ss1' % prefix, 1, 'ina' if ina else legacy)
    host_plans = [_host(prefix, 1, i, i) for i in range(1, hosts + 1)]
    ps_plans = [_host(prefix, 1, hosts + j, j, 'ps') for j in range(1, ps + 1)]
    links = [LinkPlan(h.name, 0, sw.name, h.index, True) for h in host_plans + ps_plans]
    return TestbedPlan('single', host_plans, [sw], links, ps_plans)


def plan_leafspine(prefix, racks, hosts, spines, ina_racks, legacy='bridge', spine_kind='p4', ps=0):
    """ps: parameter-server hosts, in a rack of their own (racks + 1) under a legacy ToR."""
    if legacy == 'bridge' and spines > 1 and (len(ina_racks) < racks or ps):
        why = 'the parameter servers\' rack has a legacy ToR' if len(ina_racks) == racks else 'some ToRs are legacy'
        raise TopologyError('Linux-bridge ToRs flood every port, which loops with %d spines (%s): use --legacy p4 (forward.p4), or spines=1' % (spines, why))
    if spine_kind == 'bridge' and spines > 1:
        raise TopologyError('Linux-bridge spines loop when there are %d of them: use --spine p4' % spines)
    host_plans, switches, links = [], [], []
    for rack in range(1, racks + 1):
        tor = _tor('%st%d' % (prefix, rack), rack, 'ina' if rack in ina_racks else legacy)
        switches.append(tor)
        for index in range(1, hosts + 1):
            h = _host(prefix, rack, index, (rack - 1) * hosts + index)
            host_plans.append(h)
            links.append(LinkPlan(h.name, 0, tor.name, index, True))
    ps_plans = []
    if ps:
        rack = racks + 1
        tor = _tor('%st%d' % (prefix, rack), rack, legacy)
        switches.append(tor)
        ps_plans = [_host(prefix, rack, j, j, 'ps') for j in range(1, ps + 1)]
        links += [LinkPlan(h.name, 0, tor.name, h.index, True) for h in ps_plans]
    # ToR ports: its hosts first, then one per spine.
    uplinks = [(r, hosts) for r in range(1, racks + 1)] + ([(racks + 1, ps)] if ps else [])
    for k in range(1, spines + 1):
        spine = _spine('%ss%d' % (prefix, k), k, spine_kind)
        switches.append(spine)
        for rack, first in uplinks:
            links.append(LinkPlan('%st%d' % (prefix, rack), first + k, spine.name, rack, False))
    return TestbedPlan('leafspine', host_plans, switches, links, ps_plans)


def link_shaping(link, options, red_ecn=False):
    """TCLink parameters of a link: bandwidth (htb), RED with ECN marking under it (red_ecn, for --ecn when
    the kernel has RED) and delay (netem) on every link.
    Loss is not here: it is applied in the hosts' namespaces (hosts.apply_loss), which needs no netem."""
    params = {}
    if options.bw:
        params['bw'] = options.bw
        if red_ecn:
            params['enable_ecn'] = True
    if options.delay:
        params['delay'] = options.delay
    return params


def mininet_topo(plan, options, switch_params, red_ecn=False):
    """The Mininet topology; switch_params(switch plan) gives each switch's cls and parameters."""
    from mininet.topo import Topo

    topo = Topo()
    for h in plan.all_hosts:
        topo.addHost(h.name, ip='%s/8' % h.ip, mac=h.mac)
    for s in plan.switches:
        topo.addSwitch(s.name, **switch_params(s))
    for link in plan.links:
        topo.addLink(link.a, link.b, port1=link.port_a, port2=link.port_b, **link_shaping(link, options, red_ecn))
    return topo


def topology_json(plan, options, grpc_of, device_id_of, program_of, target):
    """The controller's topology file (docs/topology.md) for the plan."""
    switches = {}
    for s in plan.switches:
        if s.kind == 'bridge':
            switches[s.name] = {'target': 'linux-bridge', 'role': s.role}
            continue
        entry = {'target': target, 'grpc': grpc_of(s.name), 'device_id': device_id_of(s.name), 'role': s.role,
                 'ina': s.kind == 'ina', 'program': program_of(s)}
        if s.ip:
            entry.update(ip=s.ip, mac=s.mac)
        switches[s.name] = entry
    links = []
    for link in plan.links:
        a = link.a if link.host_link else '%s-p%d' % (link.a, link.port_a)
        entry = {'nodes': [a, '%s-p%d' % (link.b, link.port_b)]}
        if options.bw:
            entry['bandwidth_mbps'] = options.bw
        if options.delay:
            entry['delay_ms'] = delay_ms(options.delay)
        links.append(entry)
    return {
        'description': 'p4ina Mininet testbed: %s' % options.topo,
        'hosts': {h.name: {'ip': '%s/8' % h.ip, 'mac': h.mac} for h in plan.all_hosts},
        'switches': switches,
        'links': links,
    }


def port_rates(plan, name, options):
    """The egress rate of each port of switch `name`: its link's bandwidth (Mbit/s), {port: mbps}."""
    if not options.bw:
        return {}
    rates = {}
    for link in plan.links:
        if link.b == name:
            rates[link.port_b] = options.bw
        if link.a == name and not link.host_link:
            rates[link.port_a] = options.bw
    return rates


def delay_ms(text):
    """'2ms', '100us', '1s' or a number of ms → ms."""
    text = str(text).strip()
    for suffix, scale in (('ms', 1.0), ('us', 0.001), ('s', 1000.0)):
        if text.endswith(suffix):
            return float(text[:-len(suffix)]) * scale
    return float(text)
