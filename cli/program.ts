// landlord: one image, one CLI (loaded by main.ts). `landlord operator`, `landlord sync` and `landlord purger` are the
// components; `landlord crd` prints landlord's CRDs; `validate`, `plan`, `history`, `rollback` and `migrate-storage` are for people. The sandbox (`npm start`) is development tooling in
// sandbox/, not part of the shipped CLI. commander parses the command line; every usage mistake
// exits 2 with one line, as a configuration mistake does.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { COMMON_SETTINGS, makeContext, runComponent } from '../runtime/component.js';
import {
  ConfigError,
  describeSettings,
  formerNamesInUse,
  loadSettings,
  type SettingSpec,
} from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';
import { crdYaml } from '../api/crd.js';
import { ALL_CRDS } from '../api/crds.js';
import { OPERATOR_SETTINGS, type OperatorSettings } from '../operator/settings.js';
import { PURGER_SETTINGS, type PurgerSettings } from '../purger/settings.js';
import { SYNC_SETTINGS, type SyncSettings } from '../sync/settings.js';
import { addHistoryCommand } from './history-command.js';
import { addMigrateStorageCommand } from './migrate-storage-command.js';
import { addPlanCommand, PLAN_EXIT } from './plan-command.js';
import { addRollbackCommand } from './rollback-command.js';
import { addValidateCommand } from './validate-command.js';
import { EXIT } from './validate.js';

/** Exit code of a usage mistake or a bad setting: the process never started its work. */
const USAGE_ERROR = EXIT.usage;

function settingsOf<T>(specs: Record<string, SettingSpec>): T {
  return loadSettings<T>(
    { ...COMMON_SETTINGS, ...specs } as Record<keyof T & string, SettingSpec>,
    process.env,
  );
}

// Each component's code loads only when its command runs: a process holds one component, not
// three (docs/adr/0006-process-memory-at-rest.md).
async function runOperator(): Promise<void> {
  const settings = settingsOf<OperatorSettings>(OPERATOR_SETTINGS);
  const { createOperator } = await import('../operator/index.js');
  await runComponent(createOperator(settings), makeContext('operator', settings));
}

async function runSync(): Promise<void> {
  const settings = settingsOf<SyncSettings>(SYNC_SETTINGS);
  const { createSync } = await import('../sync/index.js');
  await runComponent(createSync(settings), makeContext('sync', settings));
}

async function runPurger(): Promise<void> {
  const settings = settingsOf<PurgerSettings>(PURGER_SETTINGS);
  const { createPurger } = await import('../purger/index.js');
  const ctx = makeContext('purger', settings);
  warnFormerNames(ctx.logger, PURGER_SETTINGS);
  await runComponent(createPurger(settings), ctx);
}

/** A setting still read under its former name works, and says so where the operator of landlord looks. */
function warnFormerNames(logger: Logger, specs: Record<string, SettingSpec>): void {
  for (const warning of formerNamesInUse(specs, process.env)) logger.warn(warning);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The settings table under a component's help: the environment is its only configuration. */
function environmentHelp(specs: Record<string, SettingSpec>): string {
  return `\nEnvironment:\n${describeSettings({ ...COMMON_SETTINGS, ...specs })}\n`;
}

/** The command tree. `setCode` receives the exit code a command decides on (validate's verdict). */
function program(setCode: (code: number) => void): Command {
  const landlord = new Command('landlord')
    .description('Runs tenants on Kubernetes from a DynamoDB table.')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help')
    .helpCommand('help [command]', 'print help for a command')
    // Subcommands copy these two settings when they are created, so they come first.
    .exitOverride()
    .configureOutput({
      // "landlord: unknown command 'x' (Did you mean …?)" rather than commander's "error: …" and a
      // second line: one line, like every other error here, for logs and CI output.
      outputError: (text, write) =>
        write(
          `landlord: ${text
            .replace(/^error: /, '')
            .trimEnd()
            .replaceAll('\n', ' ')}\n`,
        ),
    });
  landlord
    .command('operator')
    .description('Reconcile Tenants into Deployments and ConfigMaps (no AWS credentials needed).')
    .addHelpText('after', environmentHelp(OPERATOR_SETTINGS))
    .action(runOperator);
  landlord
    .command('sync')
    .description('Mirror the DynamoDB table into Tenants (needs read access to the table and its stream).')
    .addHelpText('after', environmentHelp(SYNC_SETTINGS))
    .action(runSync);
  landlord
    .command('purger')
    .description(
      'Delete the data of Tenants in state purged from the data tables, after a delay (needs delete access to those tables only).',
    )
    .addHelpText('after', environmentHelp(PURGER_SETTINGS))
    .action(runPurger);
  landlord
    .command('crd')
    .argument('[name]', `one CRD: ${ALL_CRDS.map((c) => c.name).join(' or ')}`)
    .description(
      "Print landlord's CustomResourceDefinitions (YAML), e.g. for `landlord crd | kubectl apply -f -`.",
    )
    .action((name: string | undefined) => printCrds(name));
  addValidateCommand(landlord, setCode);
  addPlanCommand(landlord, setCode);
  addHistoryCommand(landlord, setCode);
  addRollbackCommand(landlord, setCode);
  addMigrateStorageCommand(landlord, setCode);
  return landlord;
}

/** Every CRD as one multi-document YAML stream, or the one named. */
function printCrds(name: string | undefined): void {
  const chosen = ALL_CRDS.filter((c) => name === undefined || c.name === name);
  if (chosen.length === 0)
    throw new ConfigError(`no CRD named ${name}; one of: ${ALL_CRDS.map((c) => c.name).join(', ')}`);
  process.stdout.write(chosen.map((c) => crdYaml(c.crd, c.source)).join('---\n'));
}

/** `plan` keeps 2 for "changes", so that a script never reads a typo as a plan. */
const usageError = (argv: string[]): number => (argv[0] === 'plan' ? PLAN_EXIT.failed : USAGE_ERROR);

async function main(argv: string[]): Promise<number> {
  let code = 0;
  const landlord = program((c) => (code = c));
  if (argv.length === 0) {
    // No command is a usage mistake: the help goes to stderr, and nothing ran.
    landlord.outputHelp({ error: true });
    return USAGE_ERROR;
  }
  try {
    await landlord.parseAsync(argv, { from: 'user' });
  } catch (err) {
    // commander has already printed the help, the version or the one-line error.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : usageError(argv);
    throw err;
  }
  return code;
}

try {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exitCode = code;
} catch (err) {
  // A configuration mistake is one line naming the variable, not a stack trace.
  const text =
    err instanceof ConfigError
      ? err.message
      : err instanceof Error
        ? (err.stack ?? err.message)
        : String(err);
  process.stderr.write(`landlord: ${text}\n`);
  process.exitCode = USAGE_ERROR;
}
