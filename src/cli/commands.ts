/** The registry of `p4ina` subcommands. Each module exports `run(argv): Promise<exit code>`. */
export interface CommandModule {
  run(argv: string[]): Promise<number>;
}

export interface Command {
  summary: string;
  load(): Promise<CommandModule>;
}

export const commands: Record<string, Command> = {
  switch: {
    summary: 'run an emulated v1model switch with a P4Runtime server (flags as simple_switch_grpc)',
    load: () => import('./switch-command.js'),
  },
  compile: {
    summary: 'compile a P4-16 v1model program into the pipeline IR and P4Info (flags as p4c)',
    load: () => import('./compile-command.js'),
  },
  stf: {
    summary: 'run an STF packet test (p4c\'s testdata format) against the emulated switch in process',
    load: () => import('./stf-command.js'),
  },
  agent: {
    summary: 'run one host agent: a SwitchML or ATP worker, the ATP parameter server, a ring worker, or the PS baseline',
    load: () => import('./agent-command.js'),
  },
  demo: {
    summary: 'the main job on loopback: SwitchML through an emulated switch vs ring AllReduce, with a table',
    load: () => import('./demo-command.js'),
  },
  controller: {
    summary: 'program the switches of a topology file: pipelines, forwarding, jobs (apply, teardown)',
    load: () => import('./controller-command.js'),
  },
  rollout: {
    summary: 'one job at every stage of an incremental INA rollout, every algorithm, exactness checked; a table and an SVG plot',
    load: () => import('./rollout-command.js'),
  },
  testbed: {
    summary: 'a Mininet testbed in one command (root): switches, controller, one agent per host, a table',
    load: () => import('./testbed-command.js'),
  },
};
