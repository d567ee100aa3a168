// `landlord validate <row.json>`: the checks on one row, offline (no cluster, no AWS), for whoever
// writes rows to run in their CI. The policy settings come from the operator's own environment
// variables, with its defaults, so a row is judged as the running operator would judge it.
import { readFile } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import { describeSettings, loadSettings } from '../runtime/config.js';
import { POLICY_SETTINGS, policyConfig, type PolicySettings } from '../operator/settings.js';
import { BUILT_IN_CLASS_NAME, type TenantClass } from '../api/tenantclass.js';
import { parseClassFile } from './class-file.js';
import { EXIT, exitCode, validateRow, type RowVerdict } from './validate.js';

type Format = 'text' | 'json';

interface ValidateOptions {
  output: Format;
  /** A file of TenantClasses to judge the row under; absent: the built-in class. */
  classes?: string;
  /** The table the row is in, for the classes' allowedTables; absent: none (as for a Tenant sync did not make). */
  table?: string;
}

type Read<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The file's text, or the one-line usage problem with it. */
async function readText(file: string): Promise<Read<string>> {
  try {
    return { ok: true, value: await readFile(file, 'utf8') };
  } catch (err) {
    return {
      ok: false,
      problem: `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    };
  }
}

/** The row file's JSON, or the one-line usage problem with it. */
async function readRow(file: string): Promise<Read<unknown>> {
  const text = await readText(file);
  if (!text.ok) return text;
  try {
    return { ok: true, value: JSON.parse(text.value) as unknown };
  } catch (err) {
    return { ok: false, problem: `${file} is not JSON: ${(err as Error).message.replace(/\s+/g, ' ')}` };
  }
}

/** The classes file's TenantClasses (none asked for: undefined), or the one-line usage problem with it. */
async function readClasses(file: string | undefined): Promise<Read<TenantClass[] | undefined>> {
  if (file === undefined) return { ok: true, value: undefined };
  const text = await readText(file);
  if (!text.ok) return text;
  const read = parseClassFile(text.value);
  return read.ok ? { ok: true, value: read.classes } : { ok: false, problem: `${file}: ${read.problem}` };
}

/** The verdict for people: one line, then the children or the condition the Tenant would carry. */
function verdictText(verdict: RowVerdict): string {
  switch (verdict.verdict) {
    case 'valid':
      return [
        validHead(verdict),
        ...verdict.children.map(
          (c) => `  ${c.kind} ${c.namespace === undefined ? '' : `${c.namespace}/`}${c.name ?? ''}`,
        ),
        ...(verdict.url === undefined ? [] : [`  reached at ${verdict.url}`]),
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

function validHead(verdict: Extract<RowVerdict, { verdict: 'valid' }>): string {
  const { name, state, children } = verdict;
  const notes = [
    ...(verdict.class === BUILT_IN_CLASS_NAME ? [] : [`class ${verdict.class}`]),
    ...(state === 'active' ? [] : [`state: ${state}`]),
  ];
  const tenant = notes.length === 0 ? `tenant ${name}` : `tenant ${name} (${notes.join(', ')})`;
  const purge =
    state === 'purged' ? "; the purger, where installed, deletes the tenant's data after its delay" : '';
  return children.length === 0 ? `OK: ${tenant} would keep no children${purge}` : `OK: ${tenant} would get:`;
}

function usageError(problem: string): number {
  process.stderr.write(`landlord: ${problem}\n`);
  return EXIT.usage;
}

async function validate(file: string, options: ValidateOptions): Promise<number> {
  const row = await readRow(file);
  if (!row.ok) return usageError(row.problem);
  const classes = await readClasses(options.classes);
  if (!classes.ok) return usageError(classes.problem);
  // A bad setting throws a ConfigError: one line naming the variable, exit 2, as for the operator.
  const settings = loadSettings<PolicySettings>(POLICY_SETTINGS, process.env);
  const verdict = validateRow(row.value, policyConfig(settings), classes.value, options.table);
  if (verdict.verdict === 'unreadable') {
    process.stderr.write(`landlord: ${file}: ${verdict.message}\n`);
  } else if (options.output === 'json') {
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
    .option(
      '--classes <file>',
      "the platform's TenantClasses, YAML or JSON (kubectl get tc -o yaml > classes.yaml): the row is judged under the class the operator would give it (default: the built-in class)",
    )
    .option(
      '--table <name>',
      'the DynamoDB table the row is in, as sync would stamp it on the Tenant: a class whose allowedTables leaves it out (or any class with allowedTables, without this option) refuses the row with ClassNotAllowed',
    )
    .addHelpText(
      'after',
      `\nEnvironment (the operator's policy settings):\n${describeSettings(POLICY_SETTINGS)}\n`,
    )
    .action(async (file: string, options: ValidateOptions) => {
      setCode(await validate(file, options));
    });
}
