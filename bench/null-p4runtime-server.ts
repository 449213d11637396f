/**
 * A P4Runtime server that does no work: every stream is told it is primary and
 * every Write succeeds at once. Benchmarks send the same traffic to it and to
 * our switch, so the difference is the switch's own cost. With `--no-decode`
 * it does not even decode Write requests (proto-loader's decoding is work a
 * server does), so what remains is the client's and gRPC's cost alone.
 */
import * as grpc from '@grpc/grpc-js';
import { p4RuntimeGrpc } from '../src/proto/load.js';
import type * as p4r from '../src/proto/p4r.js';

const service = p4RuntimeGrpc().p4.v1.P4Runtime.service;
const server = new grpc.Server({ 'grpc.max_receive_message_length': 256 * 1024 * 1024 });
const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<never>): void =>
  callback({ code: grpc.status.UNIMPLEMENTED, details: 'null server' });

const noDecode = process.argv.includes('--no-decode');
const methods = noDecode ? { ...service, Write: { ...service.Write, requestDeserialize: (bytes: Buffer) => bytes } } : service;

server.addService(methods, {
  Write: (_call: grpc.ServerUnaryCall<unknown, p4r.WriteResponse>, callback: grpc.sendUnaryData<p4r.WriteResponse>) => callback(null, {}),
  Read: (call: grpc.ServerWritableStream<p4r.ReadRequest__Output, p4r.ReadResponse>) => call.end(),
  SetForwardingPipelineConfig: (_call: unknown, callback: grpc.sendUnaryData<p4r.SetForwardingPipelineConfigResponse>) => callback(null, {}),
  GetForwardingPipelineConfig: unimplemented,
  Capabilities: (_call: unknown, callback: grpc.sendUnaryData<p4r.CapabilitiesResponse>) => callback(null, { p4runtime_api_version: '1.5.0' }),
  StreamChannel: (call: grpc.ServerDuplexStream<p4r.StreamMessageRequest__Output, p4r.StreamMessageResponse>) => {
    call.on('data', (msg: p4r.StreamMessageRequest__Output) => {
      if (msg.update === 'arbitration' && msg.arbitration) {
        call.write({ arbitration: { ...msg.arbitration, status: { code: grpc.status.OK, message: 'primary', details: [] } } });
      }
    });
    call.on('end', () => call.end());
    call.on('error', () => undefined);
  },
});

server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) {
    process.stderr.write(`null server: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`null P4Runtime server listening on 127.0.0.1:${port}\n`);
});
process.on('SIGTERM', () => server.tryShutdown(() => process.exit(0)));
