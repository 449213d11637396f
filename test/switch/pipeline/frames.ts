/** Test frames: Ethernet + IPv4 with a correct header checksum. */
import { csum16 } from '../../../src/switch/externs/index.js';

export function mac(text: string): Buffer {
  return Buffer.from(text.replace(/:/g, ''), 'hex');
}

export function ip(text: string): Buffer {
  return Buffer.from(text.split('.').map(Number));
}

export interface Ipv4Options {
  dst?: string;
  src?: string;
  srcIp?: string;
  dstIp?: string;
  ttl?: number;
  protocol?: number;
  diffserv?: number;
  payload?: Buffer;
  badChecksum?: boolean;
}

export function ipv4Header(o: Ipv4Options = {}): Buffer {
  const payload = o.payload ?? Buffer.from('hello');
  const h = Buffer.alloc(20);
  h[0] = 0x45;
  h[1] = o.diffserv ?? 0;
  h.writeUInt16BE(20 + payload.length, 2);
  h.writeUInt16BE(1, 4);
  h[8] = o.ttl ?? 64;
  h[9] = o.protocol ?? 17;
  ip(o.srcIp ?? '10.0.1.1').copy(h, 12);
  ip(o.dstIp ?? '10.0.2.2').copy(h, 16);
  h.writeUInt16BE(csum16(h) ^ (o.badChecksum ? 0x1 : 0), 10);
  return h;
}

export function ipv4Frame(o: Ipv4Options = {}): Buffer {
  const eth = Buffer.concat([mac(o.dst ?? '00:00:00:00:01:01'), mac(o.src ?? '00:00:00:00:01:02'), Buffer.from([0x08, 0x00])]);
  return Buffer.concat([eth, ipv4Header(o), o.payload ?? Buffer.from('hello')]);
}
