/**
 * Byte layouts shared by agents, switch tests and tools: Ethernet, ARP, IPv4,
 * UDP and whole UDP frames, and p4ina's INA headers (SwitchML, ATP,
 * OmniReduce, Rina). Decoders return a value or a WireError and never throw
 * on bad bytes; encoders write into the caller's buffer. Spec: docs/wire.md.
 */
export * from './wire-error.js';
export * from './address.js';
export * from './checksum.js';
export * from './ethernet.js';
export * from './arp.js';
export * from './ipv4.js';
export * from './udp.js';
export * from './udp-frame.js';
export * from './int32-view.js';
export * from './pool-index.js';
export * from './ina-ports.js';
export * from './switchml.js';
export * from './atp.js';
export * from './omnireduce.js';
export * from './rina.js';
