"""Which testbed a command line asks for (its plan) and which hosts run each algorithm."""
from .topologies import TopologyError, parse_rack_list, parse_topo, plan_leafspine, plan_single


def make_plan(options):
    kind, values = parse_topo(options.topo)
    if kind == 'single':
        ina = parse_rack_list(options.ina_tors, 1)
        return plan_single(options.prefix, values['hosts'], ina=bool(ina), legacy='p4' if options.legacy == 'p4' else 'bridge', ps=options.server_hosts)
    ina = parse_rack_list(options.ina_tors, values['racks'])
    return plan_leafspine(options.prefix, values['racks'], values['hosts'], values['spines'], ina, options.legacy, options.spine, ps=options.server_hosts)


def choose_hosts(plan, options, algorithm):
    """The hosts of a run, by rank: SwitchML's and omnireduce-switch's in one INA rack (or a single switch), where one
    switch sees every worker; every other algorithm's on every worker host (ATP and Rina aggregate what they can per
    rack, the PS or the ring does the rest; OmniReduce's host aggregator serves any host), unless --workers names them."""
    by_name = {h.name: h for h in plan.hosts}
    text = options.workers
    if text not in ('auto',) and not text.startswith('rack='):
        names = [n.strip() for n in text.split(',') if n.strip()]
        # Accept h1 for PREFIXh1: users read host names off the table.
        names = [n if n in by_name else options.prefix + n for n in names]
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise TopologyError('--workers: no host %s; the hosts are %s' % (', '.join(unknown), ', '.join(by_name)))
        return [by_name[n] for n in names]
    if algorithm in ('ring', 'atp', 'ps', 'rina', 'hierarchical', 'omnireduce'):
        return list(plan.hosts)
    if text.startswith('rack='):
        rack = int(text[5:]) if text[5:].isdigit() else 0
        hosts = plan.hosts_of_rack(rack)
        if not hosts:
            raise TopologyError('--workers %s: there is no such rack' % text)
        return hosts
    if plan.kind == 'single':
        return list(plan.hosts)
    ina_racks = [s.rack for s in plan.switches if s.role == 'tor' and s.kind == 'ina']
    if not ina_racks:
        raise TopologyError('%s needs an INA-capable ToR: give --ina-tors, or run --job ring' % ('SwitchML' if algorithm == 'switchml' else algorithm))
    return plan.hosts_of_rack(ina_racks[0])
