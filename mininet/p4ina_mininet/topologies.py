"""Testbed topologies on paper: `single` (k hosts on one switch) and
`leafspine` (racks of hosts under ToRs, spines above), with each switch's
kind: "ina" (runs switchml.p4, has an address), "p4" (a legacy switch running
forward.p4) or "bridge" (a Linux bridge). The same plan becomes a Mininet
topology (mininet_topo) and the controller's topology file (topology_json,
docs/topology.md), so the two always agree on names and port numbers.

Addresses live only inside the hosts' namespaces: host h of rack r is
10.0.r.h/8 with MAC 08:00:00:00:rr:hh; an INA ToR is 10.0.r.254,
02:00:00:00:rr:fe. Names carry a prefix so that the switches' interfaces in
the root namespace (PREFIXt1-eth1) cannot clash with anyone else's.
"""
from collections import namedtuple

HostPlan = namedtuple('HostPlan', 'name rack index ip mac')
SwitchPlan = namedtuple('SwitchPlan', 'name role rack kind ip mac')
LinkPlan = namedtuple('LinkPlan', 'a port_a b port_b host_link')


class TopologyError(Exception):
    """A --topo or --ina-tors the runner cannot build."""


class TestbedPlan:
    def __init__(self, kind, hosts, switches, links):
        self.kind = kind
        self.hosts = hosts
        self.switches = switches
        self.links = links

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


def _host(prefix, rack, index, number):
    return HostPlan('%sh%d' % (prefix, number), rack, index, '10.0.%d.%d' % (rack, index), '08:00:00:00:%02x:%02x' % (rack, index))


def _tor(name, rack, kind):
    if kind == 'ina':
        return SwitchPlan(name, 'tor', rack, 'ina', '10.0.%d.254' % rack, '02:00:00:00:%02x:fe' % rack)
    return SwitchPlan(name, 'tor', rack, kind, None, None)


def plan_single(prefix, hosts, ina=True, legacy='p4'):
    sw = _tor('%ss1' % prefix, 1, 'ina' if ina else legacy)
    host_plans = [_host(prefix, 1, i, i) for i in range(1, hosts + 1)]
    links = [LinkPlan(h.name, 0, sw.name, h.index, True) for h in host_plans]
    return TestbedPlan('single', host_plans, [sw], links)


def plan_leafspine(prefix, racks, hosts, spines, ina_racks, legacy='bridge', spine_kind='p4'):
    if legacy == 'bridge' and spines > 1 and len(ina_racks) < racks:
        raise TopologyError('Linux-bridge ToRs flood every port, which loops with %d spines: use --legacy p4 (forward.p4), or spines=1' % spines)
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
    for k in range(1, spines + 1):
        spine = SwitchPlan('%ss%d' % (prefix, k), 'spine', None, spine_kind, None, None)
        switches.append(spine)
        for rack in range(1, racks + 1):
            links.append(LinkPlan('%st%d' % (prefix, rack), hosts + k, spine.name, rack, False))
    return TestbedPlan('leafspine', host_plans, switches, links)


def link_shaping(link, options):
    """TCLink parameters of a link: bandwidth (htb) and delay (netem) on every link.
    Loss is not here: it is applied in the hosts' namespaces (hosts.apply_loss), which needs no netem."""
    params = {}
    if options.bw:
        params['bw'] = options.bw
    if options.delay:
        params['delay'] = options.delay
    return params


def mininet_topo(plan, options, switch_params):
    """The Mininet topology; switch_params(switch plan) gives each switch's cls and parameters."""
    from mininet.topo import Topo

    topo = Topo()
    for h in plan.hosts:
        topo.addHost(h.name, ip='%s/8' % h.ip, mac=h.mac)
    for s in plan.switches:
        topo.addSwitch(s.name, **switch_params(s))
    for link in plan.links:
        topo.addLink(link.a, link.b, port1=link.port_a, port2=link.port_b, **link_shaping(link, options))
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
        'hosts': {h.name: {'ip': '%s/8' % h.ip, 'mac': h.mac} for h in plan.hosts},
        'switches': switches,
        'links': links,
    }


def delay_ms(text):
    """'2ms', '100us', '1s' or a number of ms → ms."""
    text = str(text).strip()
    for suffix, scale in (('ms', 1.0), ('us', 0.001), ('s', 1000.0)):
        if text.endswith(suffix):
            return float(text[:-len(suffix)]) * scale
    return float(text)
