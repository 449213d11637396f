// Message types that exist only in tests: the P4Runtime protos have no float,
// double, sint or fixed fields and no maps with integer or bool keys, but the
// text and JSON readers must handle them. Added once per test process.
import protobuf from 'protobufjs';
import { protoRoot } from '../../src/proto/load.js';

const SOURCE = `
syntax = "proto3";
package p4ina_test;
message Scalars {
  enum Kind { ZERO = 0; ONE = 1; TWO = 2; }
  double d = 1;
  float f = 2;
  sint32 s32 = 3;
  fixed64 f64 = 4;
  map<int64, string> by_number = 5;
  map<bool, Kind> by_flag = 6;
  Kind kind = 7;
  repeated Kind kinds = 8;
  Scalars child = 9;
  bytes b = 10;
  repeated string names = 11;
  map<string, int32> counts = 12;
  sfixed32 sf32 = 13;
  uint64 u64 = 14;
}
`;

let installed = false;

/** Makes `p4ina_test.Scalars` resolvable through messageType(). */
export function installSyntheticTypes(): void {
  if (installed) return;
  const root = protoRoot();
  protobuf.parse(SOURCE, root, { keepCase: true });
  root.resolveAll();
  installed = true;
}
