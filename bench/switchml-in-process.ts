/**
 * p4/switchml.p4 in this process (in-process-switch.ts), compiled with
 * SWITCHML_ELEMENTS values per packet, with one job of 4 workers
 * (fixtures/switchml-workload.ts): the 4 workers' updates for the same slots,
 * so that every 4th packet completes a slot copy and leaves as a RESULT
 * multicast to the 4 workers. Each pass over the frames is a new epoch (new
 * rounds). Shared by the pipeline benchmark (64 values) and the packet-size
 * one.
 */
import { SML_EPOCH_OFFSET, switchMlFrames, switchMlJobUpdates } from './fixtures/switchml-workload.js';
import { compile, inProcessSwitch, rate, writeDecoded } from './in-process-switch.js';

/**
 * Updates per CPU second, timed for `seconds` after `warmupSeconds` of the same
 * work: a pipeline with many values per packet generates functions large enough
 * that V8 takes a while (on its compiler threads, which count as CPU) to optimise them.
 */
export async function switchMlUpdateRate(elements: number, seconds: number, warmupSeconds = 0): Promise<number> {
  const program = compile('p4/switchml.p4', ['p4/include'], [`SWITCHML_ELEMENTS=${elements}`]);
  const sw = inProcessSwitch(program, 5);
  try {
    writeDecoded(sw.device, switchMlJobUpdates(program.p4info));
    const frames = switchMlFrames(elements);
    const once = (i: number): void => {
      const f = frames[i % frames.length]!;
      f.frame[SML_EPOCH_OFFSET] = Math.floor(i / frames.length) & 255;
      sw.ports[f.port]!.inject(f.frame);
    };
    let done = 0;
    if (warmupSeconds > 0) rate(warmupSeconds, () => once(done++));
    // Start the timed part at a pass boundary, so that its rounds are new ones too.
    while (done % frames.length !== 0) once(done++);
    const updates = rate(seconds, () => once(done++));
    const framesIn = sw.ports.reduce((n, p) => n + p.counters.framesIn, 0);
    const sent = sw.ports.reduce((n, p) => n + p.sent, 0);
    // Every 4th update completes a copy and leaves as 4 replicas: as many frames out as in.
    if (sent !== framesIn) throw new Error(`switchml.p4 with ${elements} values sent ${sent} frames for ${framesIn} updates (expected as many)`);
    return updates;
  } finally {
    await sw.device.stop();
  }
}
