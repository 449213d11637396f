// Placeholder until the switch command lands; replaced in the same session.
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write('p4ina switch: not built yet\n');
  return 1;
}
