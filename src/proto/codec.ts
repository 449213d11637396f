/**
 * Binary encoding and decoding of single messages by full type name, with the
 * conversion options of `load.ts`, for the places that handle raw bytes
 * (grpc-status-details-bin, Any payloads, binary P4Info files).
 */
import { CONVERSION, messageType } from './load.js';

/** Serialises a plain object (as the generated input types describe it) to protobuf binary. */
export function encodeMessage(fullName: string, value: object): Uint8Array {
  const type = messageType(fullName);
  return type.encode(type.fromObject(value as Record<string, unknown>)).finish();
}

/** Parses protobuf binary into a plain object shaped like the generated `__Output` types. Throws on malformed bytes. */
export function decodeMessage<T>(fullName: string, bytes: Uint8Array): T {
  const type = messageType(fullName);
  return type.toObject(type.decode(bytes), CONVERSION) as T;
}

/** Packs a message into a google.protobuf.Any. */
export function packAny(fullName: string, value: object): { type_url: string; value: Buffer } {
  return { type_url: `type.googleapis.com/${fullName}`, value: Buffer.from(encodeMessage(fullName, value)) };
}

/** Unpacks a google.protobuf.Any whose type URL must name `fullName`; returns undefined when it names another type. */
export function unpackAny<T>(fullName: string, any: { type_url: string; value: Uint8Array }): T | undefined {
  const name = any.type_url.slice(any.type_url.lastIndexOf('/') + 1);
  if (name !== fullName) return undefined;
  return decodeMessage<T>(fullName, any.value);
}
