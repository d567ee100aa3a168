#!/usr/bin/env node
// landlord: one image, one CLI. `landlord operator` and `landlord sync` are the two components;
// `landlord crd` prints the Tenant CRD. The sandbox (`npm start`) is development tooling in
// sandbox/, not part of the shipped CLI.
import { readFileSync } from 'node:fs';
import { COMMON_SETTINGS, makeContext, runComponent } from '../runtime/component.js';
import { ConfigError, describeSettings, loadSettings, type SettingSpec } from '../runtime/config.js';
import { crdYaml } from '../api/crd.js';
import { createOperator, OPERATOR_SETTINGS, type OperatorSettings } from '../operator/index.js';
import { createSync, SYNC_SETTINGS, type SyncSettings } from '../sync/index.js';

interface Command {
  summary: string;
  settings?: Record<string, SettingSpec>;
  run(): Promise<void>;
}

function settingsOf<T>(specs: Record<string, SettingSpec>): T {
  return loadSettings<T>(
    { ...COMMON_SETTINGS, ...specs } as Record<keyof T & string, SettingSpec>,
    process.env,
  );
}

async function runOperator(): Promise<void> {
  const settings = settingsOf<OperatorSettings>(OPERATOR_SETTINGS);
  await runComponent(createOperator(settings), makeContext('operator', settings));
}

async function runSync(): Promise<void> {
  const settings = settingsOf<SyncSettings>(SYNC_SETTINGS);
  await runComponent(createSync(settings), makeContext('sync', settings));
}

const COMMANDS: Record<string, Command> = {
  operator: {
    summary: 'Reconcile Tenants into Deployments and ConfigMaps (no AWS credentials needed).',
    settings: OPERATOR_SETTINGS,
    run: runOperator,
  },
  sync: {
    summary: 'Mirror the DynamoDB table into Tenants (needs read access to the table and its stream).',
    settings: SYNC_SETTINGS,
    run: runSync,
  },
  crd: {
    summary:
      'Print the Tenant CustomResourceDefinition (YAML), e.g. for `landlord crd | kubectl apply -f -`.',
    run: () => {
      process.stdout.write(crdYaml());
      return Promise.resolve();
    },
  },
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`);
  return `Usage: landlord <command> [--help]\n\nCommands:\n${lines.join('\n')}\n`;
}

function help(name: string, command: Command): string {
  const settings =
    command.settings === undefined
      ? ''
      : `\nEnvironment:\n${describeSettings({ ...COMMON_SETTINGS, ...command.settings })}\n`;
  return `Usage: landlord ${name}\n\n${command.summary}\n${settings}`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(`landlord: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(help(name, command));
    return 0;
  }
  await command.run();
  return 0;
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
  process.exitCode = 2;
}
