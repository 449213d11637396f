/**
 * `p4ina controller apply|teardown|plan --topology FILE [--job FILE]… [--json]`:
 * the controller step of a testbed from the command line (src/testbed/
 * controller-apply.ts), and the planner's decision alone (controller-plan.ts).
 * Exit codes: 0 done, 1 the switches or a job refused (the error's code and
 * message on stderr), 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { P4inaError } from '../errors/p4ina-error.js';
import { applyController, teardownController, type ControllerReport } from '../testbed/controller-apply.js';
import { formatPlans, planJobs } from './controller-plan.js';

const USAGE = `usage: p4ina controller apply|teardown|plan --topology FILE [--job FILE]… [options]

Programs the P4Runtime switches of a topology file (docs/topology.md): apply
connects to each, pushes its pipeline unless it runs it already, installs
forwarding and sets up every job; teardown removes the jobs again. For ATP
jobs it also prints the arguments of each agent (p4ina agent atp-ps and
atp-worker), from the same plan. plan prints, for each job, where it would
aggregate, each worker's role, the ring or ATP's levels, and why; it
connects to no switch.

options:
  --topology FILE      the topology file (required)
  --job FILE           a job spec (JSON, docs/topology.md "Job specs"); repeatable
  --ina LIST           plan only: the switches that can aggregate (s1,s3 or none),
                       instead of each switch's "ina" in the topology file
  --election-id N      this controller's election id (default 1)
  --timeout MS         deadline of each P4Runtime call (default 30000)
  -L, --log-level L    the controller's log level on stderr (default warn)
  --json               print the report as one JSON line
  -h, --help           show this help`;

function describe(action: string, report: ControllerReport): string {
  const lines = [`${action}: ${report.switches.length} switch(es) (${report.switches.join(', ')}), ${report.pipelinePushes} pipeline push(es), ${report.writes} write(s)`];
  if (report.installed.length || report.unchanged.length) lines.push(`  jobs installed: ${report.installed.join(', ') || 'none'}; already in place: ${report.unchanged.join(', ') || 'none'}`);
  for (const f of report.forwarding) lines.push(`  ${f.switch}: forwarding ${f.inserted} inserted, ${f.modified} modified, ${f.unchanged} unchanged`);
  for (const j of report.jobs) {
    const where = j.aggregation.length ? j.aggregation.map((a) => `${a.switch}${a.ip ? ` (${a.ip})` : ''}`).join(', ') : 'hosts only';
    lines.push(`  job ${j.id} ${j.algorithm} → runs ${j.runs}, aggregates at ${where}`);
    for (const r of j.reasons) lines.push(`    ${r}`);
    if (j.atp) {
      lines.push(`    agents (p4ina agent atp-ps|atp-worker, plus the tensor options):`);
      lines.push(`      ${j.atp.ps.host}: atp-ps ${j.atp.ps.args.join(' ')}`);
      for (const w of j.atp.workers) lines.push(`      ${w.host}: atp-worker ${w.args.join(' ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        topology: { type: 'string' },
        job: { type: 'string', multiple: true },
        ina: { type: 'string' },
        'election-id': { type: 'string' },
        timeout: { type: 'string' },
        'log-level': { type: 'string', short: 'L' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    process.stderr.write(`p4ina controller: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const action = positionals[0];
  const usageError = (why: string): number => {
    process.stderr.write(`p4ina controller: ${why}\n\n${USAGE}\n`);
    return 2;
  };
  if (action !== 'apply' && action !== 'teardown' && action !== 'plan') return usageError('say apply, teardown or plan');
  if (positionals.length > 1) return usageError(`unexpected argument "${positionals[1]}"`);
  if (!values.topology) return usageError('--topology FILE is required');
  if (values.ina !== undefined && action !== 'plan') return usageError('--ina is for plan only; apply follows the topology file');
  if (action === 'plan') {
    if (!values.job?.length) return usageError('plan needs at least one --job FILE');
    try {
      const plans = await planJobs({ topologyPath: values.topology, jobPaths: values.job, ina: values.ina });
      process.stdout.write(values.json ? `${JSON.stringify(plans)}\n` : formatPlans(plans));
      return 0;
    } catch (err) {
      if (!P4inaError.is(err)) throw err;
      process.stderr.write(`p4ina controller plan: error ${err.code}: ${err.message}\n`);
      return 1;
    }
  }
  const electionText = values['election-id'] ?? '1';
  const timeoutText = values.timeout ?? '30000';
  if (!/^[1-9]\d*$/.test(electionText)) return usageError('--election-id: a positive whole number');
  if (!/^[1-9]\d*$/.test(timeoutText)) return usageError('--timeout: a positive number of milliseconds');
  const options = {
    topologyPath: values.topology,
    jobPaths: values.job ?? [],
    electionId: BigInt(electionText),
    rpcTimeoutMs: Number(timeoutText),
    logLevel: values['log-level'] ?? 'warn',
  };
  try {
    const report = action === 'apply' ? await applyController(options) : await teardownController(options);
    process.stdout.write(values.json ? `${JSON.stringify(report)}\n` : describe(action, report));
    return 0;
  } catch (err) {
    if (!P4inaError.is(err)) throw err;
    process.stderr.write(`p4ina controller ${action}: error ${err.code}: ${err.message}\n`);
    return 1;
  }
}
