/**
 * The gRPC channel to a switch: credentials and channel options with the
 * limits a P4Runtime client needs (spec §Guidelines): 256 MiB messages for
 * big pipelines and reads, and a raised metadata limit for the per-update
 * errors of large Writes. grpc-js does not read `grpc.max_metadata_size`
 * (it is set for peers and proxies that do); its own limit on received
 * headers is Node's HTTP/2 maxHeaderListSize, 64 KiB, which is why write()
 * splits big batches (see `maxUpdatesPerWrite`).
 */
import * as grpc from '@grpc/grpc-js';
import { p4RuntimeGrpc } from '../proto/load.js';
import type * as p4r from '../proto/p4r.js';
import { serializeWriteRequest } from './write-serializer.js';

export interface TlsOptions {
  /** PEM of the CA that signed the switch's certificate; the system roots when left out. */
  readonly ca?: Buffer | string;
  /** Client certificate and key (PEM) for mutual TLS. */
  readonly cert?: Buffer | string;
  readonly key?: Buffer | string;
}

const MiB = 1024 * 1024;

export const DEFAULT_CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.max_receive_message_length': 256 * MiB,
  'grpc.max_send_message_length': 256 * MiB,
  'grpc.max_metadata_size': 1 * MiB,
};

const toBuffer = (pem: Buffer | string | undefined): Buffer | null => (pem === undefined ? null : Buffer.isBuffer(pem) ? pem : Buffer.from(pem));

export function channelCredentials(tls: TlsOptions | undefined): grpc.ChannelCredentials {
  if (!tls) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(toBuffer(tls.ca), toBuffer(tls.key), toBuffer(tls.cert));
}

let clientConstructor: grpc.ServiceClientConstructor | undefined;

/** The P4Runtime client class with Write's serializer swapped for the bulk-friendly one. */
function p4RuntimeClientConstructor(): grpc.ServiceClientConstructor {
  if (!clientConstructor) {
    const service = p4RuntimeGrpc().p4.v1.P4Runtime.service;
    const write = service.Write as grpc.MethodDefinition<p4r.WriteRequest, p4r.WriteResponse__Output>;
    clientConstructor = grpc.makeGenericClientConstructor({ ...service, Write: { ...write, requestSerialize: serializeWriteRequest } }, 'P4Runtime');
  }
  return clientConstructor;
}

/** A P4Runtime service client for `address` (host:port). Connects lazily, on the first call. */
export function createP4RuntimeStub(address: string, tls: TlsOptions | undefined, channelOptions: grpc.ChannelOptions = {}): p4r.P4RuntimeClient {
  const Service = p4RuntimeClientConstructor();
  return new Service(address, channelCredentials(tls), { ...DEFAULT_CHANNEL_OPTIONS, ...channelOptions }) as unknown as p4r.P4RuntimeClient;
}
