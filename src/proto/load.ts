/**
 * Loads the P4Runtime protos once per process, for gRPC (through proto-loader)
 * and for reflection (through protobufjs), with one set of conversion options
 * that the generated types in `generated/` were made for.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type { ProtoGrpcType } from './generated/p4runtime.js';

/** The files we load; everything else comes in through their imports. */
export const PROTO_FILES = ['p4/v1/p4runtime.proto', 'p4/config/v1/p4info.proto', 'google/rpc/code.proto'] as const;

/**
 * How protobuf messages become JS objects everywhere in p4ina. The generated
 * types assume exactly these: snake_case fields, 64-bit integers as decimal
 * strings, enums by name, unset message fields as null and a virtual field per
 * oneof naming the member that is set.
 */
export const CONVERSION = {
  keepCase: true,
  longs: String,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
} as const;

function findProtoDir(): string {
  // Walk up from this file: it runs from src/ under vitest and from dist/src/ when built.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'proto');
    if (existsSync(join(candidate, 'p4/v1/p4runtime.proto'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('p4ina: cannot find the proto/ directory above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Absolute path of the package's `proto/` directory. */
export const PROTO_DIR = findProtoDir();

let grpcPackage: ProtoGrpcType | undefined;
let reflectionRoot: protobuf.Root | undefined;

/** The gRPC package object: `p4Runtime().p4.v1.P4Runtime` is the service. */
export function p4RuntimeGrpc(): ProtoGrpcType {
  if (!grpcPackage) {
    const definition = protoLoader.loadSync([...PROTO_FILES], { ...CONVERSION, includeDirs: [PROTO_DIR] });
    grpcPackage = grpc.loadPackageDefinition(definition) as unknown as ProtoGrpcType;
  }
  return grpcPackage;
}

/** The protobufjs root with every P4Runtime type resolved, for reflection and binary coding. */
export function protoRoot(): protobuf.Root {
  if (!reflectionRoot) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(PROTO_DIR, target));
    root.loadSync([...PROTO_FILES], { keepCase: true });
    root.resolveAll();
    reflectionRoot = root;
  }
  return reflectionRoot;
}

/** A message type by its full name, e.g. `p4.config.v1.P4Info`. Throws if there is none (a programming error). */
export function messageType(fullName: string): protobuf.Type {
  return protoRoot().lookupType(fullName);
}
