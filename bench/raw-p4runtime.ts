/**
 * Programs a switch with updates already in P4Runtime's message form (the
 * bench fixtures' form): primary by arbitration, SetForwardingPipelineConfig,
 * one Write, then the stream is closed. The fixtures build p4r.Update
 * messages, which p4ina's client (high-level updates) does not take.
 */
import { once } from 'node:events';
import type * as grpc from '@grpc/grpc-js';
import { createP4RuntimeStub } from '../src/p4runtime/channel.js';
import type * as p4i from '../src/proto/p4i.js';
import type * as p4r from '../src/proto/p4r.js';

const ELECTION_ID = { high: 0, low: 1 };

function unary<T>(call: (callback: (err: grpc.ServiceError | null, value?: T) => void) => unknown): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    call((err, value) => (err ? reject(err) : resolve(value)));
  });
}

export async function programRaw(address: string, p4info: p4i.P4Info__Output, deviceConfig: Buffer, updates: readonly p4r.Update[]): Promise<void> {
  const stub = createP4RuntimeStub(address, undefined);
  const stream = stub.StreamChannel();
  stream.on('error', () => undefined); // cancelled when closed below
  try {
    const answered = once(stream, 'data');
    stream.write({ arbitration: { device_id: 0, election_id: ELECTION_ID } });
    await answered;
    await unary((cb) =>
      stub.SetForwardingPipelineConfig(
        { device_id: 0, election_id: ELECTION_ID, action: 'VERIFY_AND_COMMIT', config: { p4info: p4info as p4i.P4Info, p4_device_config: deviceConfig } },
        cb,
      ),
    );
    await unary((cb) => stub.Write({ device_id: 0, election_id: ELECTION_ID, updates: [...updates], atomicity: 'CONTINUE_ON_ERROR' }, cb));
  } finally {
    stream.cancel();
    stub.close();
  }
}
