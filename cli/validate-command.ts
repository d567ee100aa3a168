// `landlord validate <row.json>`: the checks on one row, offline (no cluster, no AWS), for whoever
// writes rows to run in their CI. The policy settings come from the operator's own environment
// variables, with its defaults, so a row is judged as the running operator would judge it.
import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { describeSettings, loadSettings } from '../runtime/config.js';
import { POLICY_SETTINGS, policyConfig, type PolicySettings } from '../operator/settings.js';
import { EXIT, exitCode, validateRow, type RowVerdict } from './validate.js';

type Format = 'text' | 'json';

/** The row file's JSON, or the one-line usage problem with it. */
async function readRow(file: string): Promise<{ row: unknown } | { problem: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { problem: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  try {
    return { row: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: `${file} is not JSON: ${(err as Error).message.replace(/\s+/g, ' ')}` };
  }
}

/** The verdict for people: one line, then the children or the condition the Tenant would carry. */
export function verdictText(verdict: RowVerdict): string {
  switch (verdict.verdict) {
    case 'valid':
      return [
        validHead(verdict),
        ...verdict.children.map((c) => `  ${c.kind} ${c.namespace ?? ''}/${c.name ?? ''}`),
      ].join('\n');
    case 'deleted':
      return `OK: deleted: sync would delete Tenant ${verdict.name} and everything it owns`;
    case 'refused': {
      const { type, status, reason, message } = verdict.condition;
      const who =
        verdict.name === undefined
          ? 'row refused (sync skips it: its name cannot name a Tenant)'
          : `tenant ${verdict.name} refused`;
      return `REFUSED: ${who}\n  ${type}=${status} ${reason}: ${message}`;
    }
    case 'unreadable':
      return verdict.message;
  }
}

function validHead({ name, state, children }: Extract<RowVerdict, { verdict: 'valid' }>): string {
  const tenant = state === 'active' ? `tenant ${name}` : `tenant ${name} (state: ${state})`;
  const purge =
    state === 'purged' ? "; the purger, where installed, deletes the tenant's data after its delay" : '';
  return children.length === 0 ? `OK: ${tenant} would keep no children${purge}` : `OK: ${tenant} would get:`;
}

async function validate(file: string, format: Format): Promise<number> {
  const read = await readRow(file);
  if ('problem' in read) {
    process.stderr.write(`landlord: ${read.problem}\n`);
    return EXIT.usage;
  }
  // A bad setting throws a ConfigError: one line naming the variable, exit 2, as for the operator.
  const settings = loadSettings<PolicySettings>(POLICY_SETTINGS, process.env);
  const verdict = validateRow(read.row, policyConfig(settings));
  if (verdict.verdict === 'unreadable') {
    process.stderr.write(`landlord: ${file}: ${verdict.message}\n`);
  } else if (format === 'json') {
    process.stdout.write(`${JSON.stringify(verdict, null, 2)}\n`);
  } else {
    process.stdout.write(`${verdictText(verdict)}\n`);
  }
  return exitCode(verdict);
}

export function addValidateCommand(landlord: Command, setCode: (code: number) => void): void {
  landlord
    .command('validate')
    .summary('Check one row offline, as sync and the operator would.')
    .description(
      'Check one row offline, as sync and the operator would: exit 0 when valid, 1 when refused, 2 on a usage error.',
    )
    .argument('<row.json>', 'the row as put with the DocumentClient, or as DynamoDB AttributeValues')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .addHelpText(
      'after',
      `\nEnvironment (the operator's policy settings):\n${describeSettings(POLICY_SETTINGS)}\n`,
    )
    .action(async (file: string, options: { output: Format }) => {
      setCode(await validate(file, options.output));
    });
}
