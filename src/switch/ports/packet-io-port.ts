/**
 * Where PacketOuts go: the P4Runtime server validates a PacketOut against the
 * P4Info's `packet_out` controller header and hands it to the data plane
 * through this interface. The emulator's pipeline implements it (injecting the
 * packet as if it came from the CPU port); without an emulator, the runtime's
 * discarding implementation counts and drops.
 */
export interface PacketIoPort {
  /**
   * Injects one packet from the controller. `metadata` holds every field of the
   * `packet_out` header by name, each value a canonical bytestring that fits the
   * field's bitwidth (already checked). Must not throw for well-formed input;
   * a throw is logged and the packet counted as dropped.
   */
  injectPacketOut(payload: Buffer, metadata: ReadonlyMap<string, Buffer>): void;
}
