/**
 * CE marks on a UDP wire reach the ATP agents without any raw socket: the
 * test is the switch at the other end of each wire, and sets CE in the IPv4
 * header of the frames it sends (as a switch's egress or Linux's RED would).
 * A worker whose ACKs come CE-marked halves its window; a PS whose pieces
 * come CE-marked puts the ecn bit in the ACKs.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { layoutAtpJob } from '../../../src/agent/atp/atp-job-layout.js';
import { AtpWorker } from '../../../src/agent/atp/atp-worker.js';
import { AtpParameterServer } from '../../../src/agent/atp/parameter-server.js';
import { socketAddress, UdpWireTransport } from '../../../src/agent/transport/index.js';
import { ATP_HEADER_LENGTH, buildUdpFrame, decodeAtp, encodeAtp, ipv4FromText, macFromText, parseUdpFrame, type AtpHeaderFields, type AtpPacket } from '../../../src/wire/index.js';
import { eventually, openUdpHandles, rawSocket, type RawSocket } from '../transport/helpers.js';
import { expectedAtp } from './helpers/numbers.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  expect(await openUdpHandles()).toEqual([]);
});

const AGENT = { mac: '02:00:00:00:00:01', ip: '10.0.0.1', udpPort: 0xbf01 };
const PS = { mac: '02:00:00:00:00:09', ip: '10.0.0.9', udpPort: 0xbf00 };
const TOR_MAC = '02:00:00:00:00:fe';
const PER_PACKET = 4;

/** The switch port at the far end of an agent's wire: it parses what the agent sends and answers with frames whose ECN it chooses. */
async function switchPort(): Promise<RawSocket> {
  const port = await rawSocket();
  cleanups.push(() => port.close());
  return port;
}

function received(port: RawSocket, from: number): AtpPacket[] {
  return port.received.slice(from).map(({ msg }) => {
    const udp = parseUdpFrame(msg);
    if (!udp.ok) throw new Error(`the agent sent a malformed frame: ${udp.message}`);
    const p = decodeAtp(msg, udp.payloadOffset, udp.payloadOffset + udp.payloadLength);
    if (!p.ok) throw new Error('the agent sent a malformed ATP packet');
    return p;
  });
}

function frame(to: { ip: string; udpPort: number; mac: string }, from: { ip: string; udpPort: number }, ecn: number, header: AtpHeaderFields, values: ArrayLike<number>): Buffer {
  const payload = Buffer.alloc(ATP_HEADER_LENGTH + 4 * PER_PACKET);
  encodeAtp(payload, 0, { ...header, values });
  const buf = Buffer.alloc(200);
  const flow = { srcMac: macFromText(TOR_MAC), dstMac: macFromText(to.mac), srcIp: ipv4FromText(from.ip), dstIp: ipv4FromText(to.ip), srcPort: from.udpPort, dstPort: to.udpPort, ecn };
  return buf.subarray(0, buildUdpFrame(buf, 0, flow, payload));
}

describe('ATP agents on UDP wires read IPv4 CE', () => {
  test('a worker: ACK frames with CE (and no ecn bit) are marks; the window halves; results exact', async () => {
    const port = await switchPort();
    const transport = await UdpWireTransport.open({ peerPort: port.port, host: AGENT, remote: { ...PS, mac: TOR_MAC } });
    cleanups.push(() => transport.close());
    const worker = new AtpWorker({
      transport,
      ceMarks: transport,
      jobId: 4,
      rank: 0,
      worldSize: 1,
      poolSize: 64,
      bitmap0Bit: undefined,
      bitmap1Bit: 0,
      fanIn0: 0,
      fanIn1: 1,
      elementsPerPacket: PER_PACKET,
      maxWindow: 8,
      initialWindow: 8,
      valueRange: 256,
      timeoutMs: 1000,
    });
    cleanups.push(() => worker.close());
    const data = Float32Array.from({ length: 40 * PER_PACKET }, (_, i) => (i % 17) - 8.25);
    const call = worker.allreduce(data);
    // Play the PS (one worker: the sum is its own values): answer each packet, CE on the ACKs of even sequences.
    let answered = 0;
    const outcome = (async () => {
      for (let rounds = 0; rounds < 400 && answered < 40; rounds++) {
        await eventually(() => port.received.length > answered, 200);
        for (const p of received(port, answered)) {
          answered++;
          const ack = frame({ ...AGENT }, PS, p.sequenceNumber % 2 === 0 ? 3 : 2, { ...p, isAck: true, bitmap0: p.aggregatorIndex }, p.values.toInt32Array());
          await port.send(ack, transport.local.port);
        }
      }
    })();
    const { result, stats } = await call;
    await outcome;
    expect(Array.from(result)).toEqual(Array.from(expectedAtp([data], PER_PACKET, 256).exact));
    expect(stats).toMatchObject({ acks: 40, ecnMarks: 0, ipCeMarks: 20, retransmissions: 0 });
    expect(stats.windowHalvings).toBeGreaterThan(0);
    expect(stats.windowMin).toBeLessThan(8);
    expect(transport.ceMarks).toBe(20);
  });

  test('a PS: a CE-marked piece frame makes its sequence’s ACK carry the ecn bit', async () => {
    const port = await switchPort();
    const transport = await UdpWireTransport.open({ peerPort: port.port, host: PS, remote: { ...PS, mac: TOR_MAC } });
    cleanups.push(() => transport.close());
    const layout = layoutAtpJob([{ aggregating: false, workers: [socketAddress(AGENT.ip, AGENT.udpPort, 'test')] }]);
    const ps = new AtpParameterServer({ transport, ceMarks: transport, jobs: [{ jobId: 4, poolSize: 64, elementsPerPacket: PER_PACKET, contributors: layout.contributors }] });
    cleanups.push(() => ps.close());
    const piece = (sequenceNumber: number): AtpHeaderFields => ({
      bitmap0: 0,
      bitmap1: 1,
      fanInDegree0: 0,
      fanInDegree1: 1,
      overflow: false,
      resend: false,
      collision: false,
      ecn: false,
      edgeSwitchIdentifier: 1,
      isAck: false,
      aggregatorIndex: 3,
      jobId: 4,
      sequenceNumber,
      elementCount: PER_PACKET,
    });
    await port.send(frame(PS, AGENT, 3, piece(0), [1, 2, 3, 4]), transport.local.port);
    await port.send(frame(PS, AGENT, 2, piece(1), [5, 6, 7, 8]), transport.local.port);
    expect(await eventually(() => port.received.length === 2)).toBe(true);
    expect(received(port, 0).map((a) => [a.isAck, a.sequenceNumber, a.ecn, Array.from(a.values.toInt32Array())])).toEqual([
      [true, 0, true, [1, 2, 3, 4]],
      [true, 1, false, [5, 6, 7, 8]],
    ]);
    expect(ps.stats).toMatchObject({ ipCeMarks: 1, completed: 2, markedReAcks: 0 });
  });
});
