#!/usr/bin/env node
/**
 * The `p4ina` command: picks a subcommand and hands it the rest of argv.
 * Subcommands load lazily so `p4ina switch` never pays for the compiler.
 */
import { stopOnParentDeath, watchLifeline } from '../run/lifeline.js';
import { commands } from './commands.js';

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`p4ina: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  const module = await command.load();
  return module.run(rest);
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `usage: p4ina <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nRun "p4ina <command> --help" for a command's options.\n`;
}

// A child of `p4ina demo` (or of the testbed runner) stops when its parent dies, however it dies.
watchLifeline(stopOnParentDeath);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`p4ina: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
