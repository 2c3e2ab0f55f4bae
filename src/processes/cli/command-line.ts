/**
 * The command line of the single-purpose CLIs (db:migrate, db:seed, lender-simulator): `--help`
 * prints the usage and exits 0 before anything is opened or written; an unknown or malformed flag
 * is one line naming it and the usage, exit 2 (never a stack trace). `npm run admin` has commands
 * and its own parser with the same conventions.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function commandLine<O extends Options>(
  program: string,
  usage: string,
  options: O,
): ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'] {
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  } catch (err) {
    console.error(`${program}: ${(err as Error).message.split('\n')[0]}\nusage: ${usage}`);
    process.exit(2);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`usage: ${usage}\n`);
    process.exit(0);
  }
  return parsed.values as ReturnType<typeof parseArgs<{ options: O; strict: true }>>['values'];
}
