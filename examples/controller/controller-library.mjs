// The INA controller as a library: load a topology and job specs, plan each job at every stage
// of a rollout (no INA ToR, then s1, then s1 and s2), and with --install program real switches:
// push each switch's pipeline, install forwarding, set up the ATP job, read back what the
// controller holds, and tear it down again.
//
//   node examples/controller/controller-library.mjs                 # plans only, no switch needed
//   node examples/controller/controller-library.mjs --install       # needs the topology's switches:
//     for i in 1 2 3 4; do node dist/src/cli/main.js switch --no-p4 --device-id $i -- --grpc-server-addr 127.0.0.1:5007$i & done
//
// Other files: node examples/controller/controller-library.mjs --install TOPOLOGY.json ATP-JOB.json RINA-JOB.json
// Program paths in the topology ("p4": "p4/atp.p4") are resolved against the working directory.
import { fileURLToPath } from 'node:url';
import { Installer, compilePipeline, formatRolloutPlan, loadJobSpec, loadTopology, planRollout, withInaSwitches, P4inaError } from 'p4ina';

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const install = process.argv.includes('--install');
const [topologyPath = here('topology.json'), atpJobPath = here('atp-job.json'), rinaJobPath = here('rina-job.json')] = process.argv.slice(2).filter((a) => a !== '--install');

const topology = await loadTopology(topologyPath);
const jobs = [await loadJobSpec(atpJobPath), await loadJobSpec(rinaJobPath)];
const stages = [[], ['s1'], ['s1', 's2']];

for (const inaTors of stages) {
  const stage = withInaSwitches(topology, inaTors);
  console.log(`== INA ToRs: ${inaTors.join(', ') || 'none'}`);
  for (const job of jobs) process.stdout.write(formatRolloutPlan(planRollout(stage, job)));
}

if (install) {
  const atpJob = jobs[0];
  const full = withInaSwitches(topology, ['s1', 's2']);
  // Sources are compiled by p4ina's front end; BMv2 targets take p4c's outputs from the topology instead.
  const installer = await Installer.connect(full, { programs: { compiler: compilePipeline, defines: ['ATP_AGGREGATORS=256'] }, rpcTimeoutMs: 60_000 });
  try {
    const forwarding = await installer.installForwarding();
    console.log(`forwarding: ${forwarding.map((f) => `${f.switch} +${f.inserted}`).join(', ')}`);
    const installed = await installer.setupJob(atpJob);
    console.log(`installed job ${installed.spec.id} on ${installed.plan.aggregationPoints.map((p) => p.switch).join(', ')}; the controller holds job(s) ${installer.jobs().map((j) => j.spec.id).join(', ')}`);
    await installer.teardownJob(atpJob.id);
    console.log(`torn down; the controller holds ${installer.jobs().length} job(s); ${installer.counters().writes} write request(s) in all`);
  } catch (err) {
    if (!P4inaError.is(err)) throw err;
    console.error(`error ${err.code}: ${err.message}`);
    process.exitCode = 1;
  } finally {
    await installer.close();
  }
}
