// The sender that a server's transport names for each datagram (the OmniReduce
// aggregator tells workers apart by it): dgram's source over the kernel's UDP,
// the frame's IPv4 source and UDP source port on a UDP wire. The sources are
// real sockets on 127.0.0.1 and frames built here, so the expected addresses
// are known independently of the transports.
import { describe, expect, test } from 'vitest';
import { KernelUdpAddressedTransport, UdpWireTransport, type SocketAddress } from '../../../src/agent/transport/index.js';
import { buildUdpFrame, ipv4FromText, macFromText, type UdpFlow } from '../../../src/wire/index.js';
import { eventually, rawSocket, type RawSocket, UDP_IOS, closeEverythingAfterEach } from './helpers.js';

const cleanups = closeEverythingAfterEach();

async function far(): Promise<RawSocket> {
  const s = await rawSocket();
  cleanups.push(() => s.close());
  return s;
}

interface Heard {
  readonly text: string;
  readonly from: SocketAddress | undefined;
}

function listen(t: { onDatagram(l: (buf: Buffer, offset: number, length: number, from?: SocketAddress) => void): void }): Heard[] {
  const heard: Heard[] = [];
  t.onDatagram((buf, offset, length, from) => heard.push({ text: buf.toString('utf8', offset, offset + length), from }));
  return heard;
}

describe.each(UDP_IOS)('the sender of each datagram (%s)', (udpIo) => {
  test('kernel UDP server: the source address and port of each datagram, one object per source', async () => {
    const t = await KernelUdpAddressedTransport.open({ udpIo, localAddress: '127.0.0.1', localPort: 0 });
    cleanups.push(() => t.close());
    const heard = listen(t);
    const [a, b] = [await far(), await far()];
    await a.send(Buffer.from('a1'), t.local.port);
    await b.send(Buffer.from('b1'), t.local.port);
    await a.send(Buffer.from('a2'), t.local.port);
    expect(await eventually(() => heard.length === 3)).toBe(true);
    const byText = new Map(heard.map((h) => [h.text, h.from]));
    const expected = (port: number): SocketAddress => ({ family: 4, address: '127.0.0.1', port, loopback: true });
    expect(byText.get('a1')).toEqual(expected(a.port));
    expect(byText.get('b1')).toEqual(expected(b.port));
    expect(byText.get('a2')).toBe(byText.get('a1'));
    // Replying to the named sender reaches it.
    expect(t.sendTo(byText.get('b1')!, Buffer.from('reply'))).toBe(true);
    expect(await eventually(() => b.received.length === 1)).toBe(true);
    expect(b.received[0]!.msg.toString()).toBe('reply');
  });

  test('UDP wire: the IPv4 source and UDP source port inside each frame, not the wire socket it came through', async () => {
    const port = await far();
    const host = { mac: '02:00:00:00:00:01', ip: '10.0.0.9', udpPort: 0xbef0 };
    const t = await UdpWireTransport.open({ udpIo, peerPort: port.port, host, remote: { mac: '02:00:00:00:00:fe', ip: '10.0.0.254', udpPort: 0xbef0 } });
    cleanups.push(() => t.close());
    const heard = listen(t);
    const frame = (srcIp: string, srcPort: number, text: string): Buffer => {
      const buf = Buffer.alloc(200);
      const flow: UdpFlow = {
        srcMac: macFromText('02:00:00:00:00:fe'), dstMac: macFromText(host.mac), srcIp: ipv4FromText(srcIp), dstIp: ipv4FromText(host.ip),
        srcPort, dstPort: host.udpPort, udpChecksum: true,
      };
      return buf.subarray(0, buildUdpFrame(buf, 0, flow, Buffer.from(text)));
    };
    await port.send(frame('10.0.1.1', 48000, 'w0'), t.local.port);
    await port.send(frame('10.0.1.2', 48000, 'w1'), t.local.port);
    await port.send(frame('10.0.1.1', 48001, 'w0 other port'), t.local.port);
    await port.send(frame('10.0.1.1', 48000, 'w0 again'), t.local.port);
    expect(await eventually(() => heard.length === 4)).toBe(true);
    const byText = new Map(heard.map((h) => [h.text, h.from]));
    expect(byText.get('w0')).toEqual({ family: 4, address: '10.0.1.1', port: 48000, loopback: false });
    expect(byText.get('w1')).toEqual({ family: 4, address: '10.0.1.2', port: 48000, loopback: false });
    expect(byText.get('w0 other port')).toEqual({ family: 4, address: '10.0.1.1', port: 48001, loopback: false });
    expect(byText.get('w0 again')).toBe(byText.get('w0'));
  });

  test('a listener of three parameters still takes what the transport delivers', async () => {
    const t = await KernelUdpAddressedTransport.open({ udpIo, localAddress: '127.0.0.1', localPort: 0 });
    cleanups.push(() => t.close());
    const lengths: number[] = [];
    t.onDatagram((_buf, _offset, length) => lengths.push(length));
    const a = await far();
    await a.send(Buffer.from('abc'), t.local.port);
    expect(await eventually(() => lengths.length === 1)).toBe(true);
    expect(lengths).toEqual([3]);
  });
});
