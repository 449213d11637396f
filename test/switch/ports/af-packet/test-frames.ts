/**
 * Frames the AF_PACKET tests exchange: an EtherType of our own (0x88b5,
 * IEEE's local experimental one) so that a test counts only its frames,
 * and a payload that depends on the sequence number, so that any corruption
 * or reordering shows.
 */
export const TEST_ETHERTYPE = 0x88b5;
const VLAN_TPID = 0x8100;

export interface TestFrameSpec {
  readonly seq: number;
  /** Total bytes, headers included (at least 14; 18 with a VLAN tag). */
  readonly length: number;
  /** 1: the frame goes from end A to end B; 2: the other way. */
  readonly direction: 1 | 2;
  /** An 802.1Q tag (VLAN id) between the MAC addresses and the EtherType. */
  readonly vlan?: number;
}

export function testFrame(spec: TestFrameSpec): Buffer {
  const frame = Buffer.alloc(spec.length);
  // Locally administered unicast addresses that belong to neither veth end:
  // the receiving socket gets them only because it captures everything.
  frame.set([0x02, 0, 0, 0, 0, spec.direction === 1 ? 0x0b : 0x0a], 0);
  frame.set([0x02, 0, 0, 0, 0, spec.direction === 1 ? 0x0a : 0x0b], 6);
  let offset = 12;
  if (spec.vlan !== undefined) {
    frame.writeUInt16BE(VLAN_TPID, 12);
    frame.writeUInt16BE(spec.vlan, 14);
    offset = 16;
  }
  frame.writeUInt16BE(TEST_ETHERTYPE, offset);
  for (let i = offset + 2; i < spec.length; i++) frame[i] = (spec.seq * 7 + i * 13 + spec.direction) & 0xff;
  return frame;
}

/** True for frames made by testFrame (tagged or not); other traffic is ignored. */
export function isTestFrame(frame: Buffer): boolean {
  if (frame.length < 14) return false;
  const type = frame.readUInt16BE(12);
  if (type === TEST_ETHERTYPE) return true;
  return type === VLAN_TPID && frame.length >= 18 && frame.readUInt16BE(16) === TEST_ETHERTYPE;
}
