import { describe, expect, it } from 'vitest';
import { forwardingPlan } from '../../../src/controller/index.js';
import { forwardingEntity, Installer, InstallError } from '../../../src/controller/install/index.js';
import { action, defaultEntry, multicastGroup, table, type TableEntry } from '../../../src/p4runtime/index.js';
import { closedAfterEach, dumpState, leafSpine, programs, singleSwitch, TestSwitch } from './helpers.js';

describe('forwarding install', () => {
  const { switches, connect } = closedAfterEach();
  const start = async (deviceId: number) => {
    const s = await TestSwitch.start(deviceId);
    switches.push(s);
    return s;
  };

  it('installs the single switch plan, readable back by name', async () => {
    const s1 = await start(1);
    const topo = singleSwitch(s1);
    const installer = await connect(topo, { programs });
    expect(installer.counters().pipelinePushes).toBe(1);
    const [report] = await installer.installForwarding();
    // address + group + flood entry + 4 hosts × (l2 + route)
    expect(report).toEqual({ switch: 's1', inserted: 10, modified: 1, unchanged: 0, foreign: 0 });
    const session = installer.sessions.get('s1')!;
    const [address] = await session.readAll(defaultEntry('switch_address'));
    expect(address!.action).toEqual(action('ingress.identity.set_switch_address', { mac: 0x0200000001fe, ip: 0x0a0001fe }));
    const [h2] = await session.readAll(table('l2_forward', { dst_mac: '02:00:00:00:01:02' }));
    expect(h2!.action).toEqual(action('ingress.forwarding.forward', { port: 2 }));
    const [bcast] = await session.readAll(table('l2_forward', { dst_mac: 'ff:ff:ff:ff:ff:ff' }));
    expect(bcast!.action).toEqual(action('ingress.forwarding.flood', { group: 1 }));
    const [route] = await session.readAll(table('ipv4_routes', { dst_addr: '10.0.1.3/32' }));
    expect(route!.action).toEqual(action('ingress.forwarding.route', { next_hop_mac: 0x020000000103, port: 3 }));
    const [group] = await session.readAll(multicastGroup(1));
    expect(group!.replicas).toEqual([1, 2, 3, 4].map((port) => ({ port, instance: 0 })));
    expect((await session.readAll(table('l2_forward'))).length).toBe(5);
    expect((await session.readAll(table('ipv4_routes'))).length).toBe(4);
  });

  it('is idempotent: a second install writes nothing and a changed entry is modified back', async () => {
    const s1 = await start(1);
    const installer = await connect(singleSwitch(s1), { programs });
    await installer.installForwarding();
    const before = await dumpState(installer.sessions.get('s1')!);
    const writes = installer.counters().writes;
    const [again] = await installer.installForwarding();
    expect(again).toEqual({ switch: 's1', inserted: 0, modified: 0, unchanged: 11, foreign: 0 });
    expect(installer.counters().writes).toBe(writes);

    const session = installer.sessions.get('s1')!;
    await session.client.write([
      { type: 'MODIFY', entity: table('l2_forward', { dst_mac: '02:00:00:00:01:02' }, action('forward', { port: 4 })) },
      { type: 'INSERT', entity: table('l2_forward', { dst_mac: '02:00:00:00:09:09' }, action('forward', { port: 4 })) },
    ]);
    const [third] = await installer.installForwarding();
    expect(third).toMatchObject({ inserted: 0, modified: 1, unchanged: 10, foreign: 1 });
    const after = await dumpState(session);
    expect(after.filter((l) => !l.includes('"dst_mac":2199023257865'))).toEqual(before);
  });

  it('programs every switch of a leaf-spine as its plan says, compiling each program once', async () => {
    const [s1, s2, s3] = [await start(1), await start(2), await start(3)];
    const topo = leafSpine(s1, s2, s3);
    const builds = programs.builds;
    const installer = await connect(topo, { programs });
    // switchml.p4 and forward.p4 at most once each, whatever earlier tests compiled.
    expect(programs.builds - builds).toBeLessThanOrEqual(2);
    await installer.installForwarding();
    for (const plan of forwardingPlan(topo)) {
      const session = installer.sessions.get(plan.switch)!;
      for (const entity of plan.entries.map(forwardingEntity)) {
        if (entity.kind === 'multicast_group_entry') {
          const [g] = await session.readAll(multicastGroup(entity.groupId));
          expect(g!.replicas).toEqual(entity.replicas);
        } else {
          const query = entity.isDefault ? defaultEntry(entity.table!) : table(entity.table!, entity.match);
          const [e] = await session.readAll<TableEntry>(query);
          expect({ plan: plan.switch, action: e!.action }).toEqual({ plan: plan.switch, action: entity.action });
        }
      }
    }
    // h3 seen from s1: through the spine, which routes, so the next hop MAC is the spine's.
    const [route] = await installer.sessions.get('s1')!.readAll(table('ipv4_routes', { dst_addr: '10.0.2.1/32' }));
    expect(route!.action).toEqual(action('ingress.forwarding.route', { next_hop_mac: 0x020000000003, port: 3 }));
  });

  it('refuses to run beside a primary controller with a higher election id', async () => {
    const s1 = await start(1);
    const topo = singleSwitch(s1);
    await connect(topo, { programs, electionId: 10n });
    const err = await Installer.connect(topo, { programs, electionId: 2n }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('INSTALL_NOT_PRIMARY');
  });

  it('a second controller with the same election id is refused with a clear code', async () => {
    const s1 = await start(1);
    const topo = singleSwitch(s1);
    await connect(topo, { programs, electionId: 3n });
    const err = await Installer.connect(topo, { programs, electionId: 3n }).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_CONNECT_FAILED');
  });

  it('reports a switch that is not there', async () => {
    const gone = await TestSwitch.start(1);
    await gone.stop();
    const err = await Installer.connect(singleSwitch(gone), { programs, rpcTimeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('INSTALL_CONNECT_FAILED');
    expect((err as InstallError).message).toMatch(/^s1: cannot connect to 127\.0\.0\.1:/);
  });

  it('reports a program that does not compile', async () => {
    const s1 = await start(1);
    const topo = singleSwitch(s1);
    const broken = { ...topo.switches.get('s1')!, program: { p4: '/nonexistent/x.p4' } };
    const err = await Installer.connect({ ...topo, switches: new Map([['s1', broken]]) }, { programs }).catch((e: unknown) => e);
    expect((err as InstallError).code).toBe('INSTALL_PROGRAM_FAILED');
  });
});
