/**
 * "This datagram arrived with CE in its IPv4 header": how a congestion mark
 * set by any hop (a switch, Linux's RED qdisc) reaches an agent, beside the
 * datagram itself. Two sources deliver it:
 *
 * - `UdpWireTransport`: the agent parses the whole frame, so it reads the
 *   IPv4 ECN field of every datagram it delivers, for free;
 * - `KernelUdpTransport` / `KernelUdpAddressedTransport` with `observeCe`:
 *   dgram cannot read the TOS byte, so an `Ipv4CeObserver` (a raw IP socket)
 *   sees a copy of each incoming datagram and reports the marked ones.
 *
 * A mark is reported with the datagram's UDP payload, so that the agent can
 * tell which of its packets it was. It is a separate event from the
 * datagram's delivery and may come before or after it (the raw copy arrives
 * on another socket): an agent must not depend on the order.
 */
import { moduleLogger } from '../../log/logger.js';

const log = moduleLogger('agent.transport.ce');
const LOGGED_LISTENER_ERRORS = 10;

/** Called once per CE-marked datagram with its UDP payload at `buf[offset .. offset + length)`, valid during the call only. */
export type CeMarkListener = (buf: Buffer, offset: number, length: number) => void;

export interface CeMarkSource {
  /** Sets the one listener for CE marks (undefined detaches it; marks are then only counted). */
  onCeMark(listener: CeMarkListener | undefined): void;
  /** CE-marked datagrams for this agent seen so far. */
  readonly ceMarks: number;
}

/**
 * A source's one listener and its count of marks: a listener that throws is a
 * bug, logged (the first few times) and survived, as transports do with their
 * datagram listeners.
 */
export class CeMarkRelay {
  /** Marks reported, with or without a listener. */
  count = 0;
  private listener: CeMarkListener | undefined;
  private errors = 0;

  constructor(private readonly source: string) {}

  set(listener: CeMarkListener | undefined): void {
    this.listener = listener;
  }

  report(buf: Buffer, offset: number, length: number): void {
    this.count++;
    const listener = this.listener;
    if (listener === undefined) return;
    try {
      listener(buf, offset, length);
    } catch (err) {
      if (this.errors++ < LOGGED_LISTENER_ERRORS) log.error({ err, source: this.source }, 'CE mark listener threw');
    }
  }
}
