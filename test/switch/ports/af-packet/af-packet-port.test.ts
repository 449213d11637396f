/**
 * The AF_PACKET port wrapper over a fake addon (no root needed): batching of
 * sends, counters, errors mapped to typed codes, close. The real socket is
 * exercised by af-packet-netns.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { P4inaError } from '../../../../src/errors/p4ina-error.js';
import { AfPacketError } from '../../../../src/switch/ports/af-packet/af-packet-error.js';
import { AfPacketPort } from '../../../../src/switch/ports/af-packet/af-packet-port.js';
import { errnoError, encodeBatch, FakeAddon } from './fake-addon.js';
import { testFrame } from './test-frames.js';

function openFake(options: { batchSize?: number } = {}): { port: AfPacketPort; addon: FakeAddon } {
  const addon = new FakeAddon();
  const port = AfPacketPort.open({ number: 3, iface: 'veth9', addon, ...options });
  return { port, addon };
}

const frame = (seq: number, length = 60): Buffer => testFrame({ seq, length, direction: 1 });
const microtasks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('AfPacketPort over a fake addon', () => {
  it('opens with the defaults and names the port after the interface', () => {
    const { port, addon } = openFake();
    expect(port.number).toBe(3);
    expect(port.name).toBe('veth9');
    expect(port.kind).toBe('iface');
    expect(port.ifindex).toBe(7);
    expect(addon.sockets[0]!.ifname).toBe('veth9');
    expect(addon.sockets[0]!.options).toEqual({ batchSize: 64, maxFrameBytes: 65_792, receiveBufferBytes: 4 << 20, sendBufferBytes: 4 << 20 });
  });

  it('sends the frames of one tick together in one call, after the tick', async () => {
    const { port, addon } = openFake();
    const frames = [frame(0), frame(1, 100), frame(2, 1514)];
    for (const f of frames) expect(port.send(f)).toBe(true);
    expect(addon.sockets[0]!.sendCalls).toEqual([]);
    await microtasks();
    expect(addon.sockets[0]!.sendCalls).toEqual([frames]);
    expect(port.counters).toMatchObject({ framesOut: 3, bytesOut: 60 + 100 + 1514, drops: 0 });
  });

  it('flushes at once when a batch is full', () => {
    const { port, addon } = openFake({ batchSize: 2 });
    port.send(frame(0));
    port.send(frame(1));
    port.send(frame(2));
    expect(addon.sockets[0]!.sendCalls).toEqual([[frame(0), frame(1)]]);
  });

  it('counts frames the kernel refused as drops and send errors', async () => {
    const { port, addon } = openFake();
    addon.sockets[0]!.refuseLengths.add(1515);
    port.send(frame(0));
    port.send(frame(1, 1515));
    port.send(frame(2));
    await microtasks();
    expect(port.counters).toMatchObject({ framesOut: 2, bytesOut: 120, drops: 1 });
    expect(port.statistics()).toEqual({ receiveErrors: 0, sendErrors: 1, outgoingSkipped: 0, truncated: 2, kernelPackets: 10, kernelDrops: 1 });
  });

  it('drops a frame shorter than an Ethernet header instead of sending it', async () => {
    const { port, addon } = openFake();
    expect(port.send(Buffer.alloc(13))).toBe(false);
    await microtasks();
    expect(addon.sockets[0]!.sendCalls).toEqual([]);
    expect(port.counters).toMatchObject({ framesOut: 0, drops: 1 });
  });

  it('splits a received batch into frames for the listener, counting them', () => {
    const { port, addon } = openFake();
    const received: Buffer[] = [];
    port.onFrame((f, from) => {
      expect(from).toBe(port);
      received.push(f);
    });
    const frames = [frame(0, 14), frame(1, 60), frame(2, 1518)];
    addon.sockets[0]!.deliver(encodeBatch(frames), frames.length);
    expect(received).toEqual(frames);
    expect(port.counters).toMatchObject({ framesIn: 3, bytesIn: 14 + 60 + 1518, malformed: 0 });
  });

  it('counts frames shorter than an Ethernet header as malformed, and a listener throw as a drop', () => {
    const { port, addon } = openFake();
    port.onFrame(() => {
      throw new Error('listener bug');
    });
    addon.sockets[0]!.deliver(encodeBatch([Buffer.alloc(13), frame(1)]), 2);
    expect(port.counters).toMatchObject({ framesIn: 1, malformed: 1, drops: 1 });
  });

  it('counts a malformed batch from the addon as a receive error, keeping the frames that fit', () => {
    const { port, addon } = openFake();
    const received: Buffer[] = [];
    port.onFrame((f) => received.push(f));
    const batch = encodeBatch([frame(0), frame(1)]);
    addon.sockets[0]!.deliver(batch.subarray(0, batch.length - 1), 2);
    expect(received).toEqual([frame(0)]);
    expect(port.statistics().receiveErrors).toBe(1);
  });

  it('counts receive errors reported by the socket', () => {
    const { port, addon } = openFake();
    addon.sockets[0]!.fail(errnoError('ENETDOWN', 'receiving on veth9 failed: Network is down'));
    addon.sockets[0]!.fail(errnoError('ENETDOWN', 'receiving on veth9 failed: Network is down'));
    expect(port.statistics().receiveErrors).toBe(2);
  });

  it('sends what was queued before close, then closes once and drops later sends', async () => {
    const { port, addon } = openFake();
    port.send(frame(0));
    const closing = port.close();
    expect(port.closed).toBe(true);
    await closing;
    await port.close();
    const socket = addon.sockets[0]!;
    expect(socket.sendCalls).toEqual([[frame(0)]]);
    expect(socket.closeCalls).toBe(1);
    expect(port.send(frame(1))).toBe(false);
    await microtasks();
    expect(socket.sendCalls.length).toBe(1);
    expect(port.counters).toMatchObject({ framesOut: 1, drops: 1 });
  });

  it.each([
    ['EPERM', 'AF_PACKET_PERMISSION'],
    ['EACCES', 'AF_PACKET_PERMISSION'],
    ['ENODEV', 'AF_PACKET_NO_INTERFACE'],
    ['EPROTOTYPE', 'AF_PACKET_NOT_ETHERNET'],
    ['ENOMEM', 'AF_PACKET_OPEN_FAILED'],
  ])('maps an open failure with %s to %s, keeping the message and the errno name', (errno, code) => {
    const addon = new FakeAddon();
    addon.openError = errnoError(errno, 'what the addon said');
    let caught: unknown;
    try {
      AfPacketPort.open({ number: 5, iface: 'veth9', addon });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AfPacketError);
    expect(P4inaError.is(caught)).toBe(true);
    expect(caught).toMatchObject({ code, errnoName: errno, message: 'port 5 (veth9): what the addon said' });
  });

  it('lets programming errors from the addon through unchanged', () => {
    const addon = new FakeAddon();
    addon.openError = new RangeError('options.batchSize must be an integer from 1 to 1024');
    expect(() => AfPacketPort.open({ number: 1, iface: 'veth9', addon, batchSize: 0 })).toThrow(RangeError);
  });

  it('checks the port number before opening anything', () => {
    const addon = new FakeAddon();
    expect(() => AfPacketPort.open({ number: 511, iface: 'veth9', addon })).toThrow(expect.objectContaining({ code: 'PORT_DROP_PORT' }));
    expect(addon.sockets).toEqual([]);
  });
});
