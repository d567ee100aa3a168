// The built `landlord` bin's command line (and the bench's): help, errors and exit codes; then
// `landlord validate <row.json>` as a row writer's CI runs it: row files on disk, the operator's
// policy settings from the environment, and the exit code as the answer. Offline: nothing here
// talks to the control plane or DynamoDB.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../harness/paths.js';

const run = promisify(execFile);
const BIN = join(repoRoot, 'dist', 'cli', 'landlord.js');
const BENCH = join(repoRoot, 'dist', 'bench', 'main.js');

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bin with only the environment given (plus PATH), so no setting leaks in from the test run. */
async function landlord(args: string[], env: Record<string, string> = {}, bin = BIN): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as Result;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The example row of docs/rows.md: a Deployment and a ConfigMap in `default`, as JSON text. */
function row(namespace = 'default', securityContext: object = {}): object {
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'tenant-1-app', namespace },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'tenant-1' } },
      template: {
        metadata: { labels: { app: 'tenant-1' } },
        spec: { containers: [{ name: 'app', image: 'nginx:latest', securityContext }] },
      },
    },
  };
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'tenant-1-config', namespace },
    data: { 'config.json': '{"key": "value"}' },
  };
  return {
    name: 'tenant-1',
    spec: JSON.stringify(deployment),
    customizations: JSON.stringify([configMap]),
    deleted: false,
  };
}

let dir: string;
const file = (name: string): string => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'landlord-validate-'));
  await writeFile(file('valid.json'), JSON.stringify(row()));
  await writeFile(file('privileged.json'), JSON.stringify(row('default', { privileged: true })));
  await writeFile(file('bad-spec.json'), JSON.stringify({ name: 'tenant-1', spec: '{"kind":' }));
  await writeFile(file('suspended.json'), JSON.stringify({ ...row(), state: 'suspended' }));
  await writeFile(file('purged.json'), JSON.stringify({ ...row(), state: 'purged' }));
  await writeFile(file('bad-state.json'), JSON.stringify({ ...row(), state: 'Archived' }));
  await writeFile(file('not-json.json'), '{"name": "tenant-1",');
});

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** stderr as lines, for the checks that an error is exactly one line. */
const lines = (text: string): string[] => text.trim().split('\n');

describe("landlord's command line", () => {
  it.each([
    ['operator', ['LANDLORD_OPERATOR_CONCURRENCY', 'LANDLORD_POD_SECURITY', 'POD_NAMESPACE']],
    ['sync', ['DYNAMODB_TABLE', 'LANDLORD_SYNC_MAX_DELETE_FRACTION', 'POD_NAMESPACE']],
    ['validate', ['LANDLORD_POD_SECURITY', 'LANDLORD_ALLOWED_NAMESPACES', 'POD_NAMESPACE']],
    ['plan', ['DYNAMODB_TABLE', 'LANDLORD_SYNC_MAX_DELETE_MINIMUM', 'LANDLORD_POD_SECURITY']],
    ['rollback', ['DYNAMODB_TABLE', 'DYNAMODB_ENDPOINT']],
  ])('`%s --help` prints its usage and the environment variables it reads', async (command, variables) => {
    for (const args of [
      [command, '--help'],
      ['help', command],
    ]) {
      const help = await landlord(args);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(new RegExp(`^Usage: landlord ${command}`));
      for (const variable of variables) expect(help.stdout).toContain(`\n${variable} `);
    }
  });

  it('lists every command in --help', async () => {
    const help = await landlord(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    for (const command of ['operator', 'sync', 'crd', 'validate', 'plan', 'history', 'rollback']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it.each([
    ['an unknown command', ['operate'], /^landlord: unknown command 'operate' \(Did you mean operator\?\)$/],
    ['an unknown option', ['operator', '--dry-run'], /^landlord: unknown option '--dry-run'$/],
    ['an extra argument', ['crd', 'tenants.landlord.dev', 'x'], /^landlord: too many arguments for 'crd'/],
    [
      'a rollback without its revision',
      ['rollback', 'tenant-1'],
      /^landlord: required option '--to-revision <n>' not specified$/,
    ],
    [
      'a revision that is not a number',
      ['history', 'tenant-1', '--revision', 'latest'],
      /^landlord: option '--revision <n>' argument 'latest' is invalid\. a revision number is a positive integer$/,
    ],
    [
      'a CRD that does not exist',
      ['crd', 'tenants'],
      /^landlord: no CRD named tenants; one of: tenants\.landlord\.dev, tenantclasses\.landlord\.dev$/,
    ],
  ])('refuses %s with one line and exit 2, before running anything', async (_, args, error) => {
    const result = await landlord(args);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(lines(result.stderr)).toEqual([expect.stringMatching(error)]);
  });

  it('refuses a usage mistake of plan with exit 1, since its 2 means "changes"', async () => {
    for (const args of [
      ['plan', '--dry-run'],
      ['plan', '-o', 'yaml'],
    ]) {
      const result = await landlord(args);
      expect(result, args.join(' ')).toMatchObject({ code: 1, stdout: '' });
      expect(lines(result.stderr)).toHaveLength(1);
    }
  });

  it('answers no command with the usage on stderr and exit 2', async () => {
    const result = await landlord([]);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^Usage: landlord /);
  });

  it('bench: --help lists its options; an unknown option or a bad value is exit 2', async () => {
    const help = await landlord(['--help'], {}, BENCH);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    for (const flag of [
      '--quick',
      '--sizes',
      '--edits',
      '--profile',
      '--out',
      '--no-baseline',
      '--node-options',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    for (const args of [['--fast'], ['--sizes=0'], ['--edits=two']]) {
      const result = await landlord(args, {}, BENCH);
      expect(result.code, args.join(' ')).toBe(2);
      expect(lines(result.stderr), args.join(' ')).toHaveLength(1);
    }
  });
});

describe('landlord validate', () => {
  it('accepts a valid row: exit 0 and the children it would create', async () => {
    expect(await landlord(['validate', file('valid.json')])).toEqual({
      code: 0,
      stdout:
        'OK: tenant tenant-1 would get:\n  Deployment default/tenant-1-app\n  ConfigMap default/tenant-1-config\n',
      stderr: '',
    });
  });

  it('says the state of a row that is not active, and that purged deletes no data', async () => {
    const suspended = await landlord(['validate', file('suspended.json')]);
    expect(suspended.stdout.split('\n')[0]).toBe('OK: tenant tenant-1 (state: suspended) would get:');
    expect(await landlord(['validate', file('purged.json')])).toEqual({
      code: 0,
      stdout:
        "OK: tenant tenant-1 (state: purged) would keep no children; the purger, where installed, deletes the tenant's data after its delay\n",
      stderr: '',
    });
  });

  it('refuses an unknown state, naming the allowed values: exit 1', async () => {
    const result = await landlord(['validate', file('bad-state.json')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'Synced=False InvalidRecord: state: "Archived" is not a state; allowed: active, suspended, archived, purged (absent: active)',
    );
  });

  it("refuses a privileged pod with the operator's reason and message: exit 1", async () => {
    const result = await landlord(['validate', file('privileged.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const [first, condition] = result.stdout.trim().split('\n');
    expect(first).toBe('REFUSED: tenant tenant-1 refused');
    expect(condition).toMatch(
      /^ {2}Applied=False PodSecurityViolation: Deployment default\/tenant-1-app: .*privileged.* baseline Pod Security Standard/,
    );
    // The same row passes an operator configured to allow privileged pods.
    expect(
      (await landlord(['validate', file('privileged.json')], { LANDLORD_POD_SECURITY: 'privileged' })).code,
    ).toBe(0);
  });

  it('reads the allowed namespaces from the environment, and answers in JSON with -o json', async () => {
    const result = await landlord(['validate', '-o', 'json', file('valid.json')], {
      LANDLORD_ALLOWED_NAMESPACES: 'team-a,team-b',
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      verdict: 'refused',
      form: 'document',
      name: 'tenant-1',
      condition: { type: 'Applied', status: 'False', reason: 'NamespaceNotAllowed' },
    });
  });

  it("judges the row under the platform's classes with --classes: the shipped default class gives it a namespace", async () => {
    const classes = join(repoRoot, 'config', 'classes', 'standard.yaml');
    const result = await landlord(['validate', '--classes', classes, file('valid.json')]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      'OK: tenant tenant-1 (class standard) would get:',
      '  Namespace tenant-tenant-1',
      '  ServiceAccount tenant-tenant-1/landlord-tenant',
    ]);
    expect(result.stdout).toContain('  Deployment tenant-tenant-1/tenant-1-app\n');
    const notClasses = await landlord(['validate', '--classes', file('valid.json'), file('valid.json')]);
    expect(notClasses.code).toBe(2);
    expect(notClasses.stderr).toMatch(
      /^landlord: .*valid\.json: document 1: expected apiVersion landlord\.dev\/v1beta1 or landlord\.dev\/v1alpha1, kind TenantClass; found undefined undefined\n$/,
    );
  });

  it("refuses a row sync would refuse, with sync's reason: exit 1", async () => {
    const result = await landlord(['validate', '--output=json', file('bad-spec.json')]);
    expect(result.code).toBe(1);
    const verdict = JSON.parse(result.stdout) as { condition: { message: string } };
    expect(verdict).toMatchObject({
      verdict: 'refused',
      condition: { type: 'Synced', status: 'False', reason: 'InvalidRecord' },
    });
    expect(verdict.condition.message).toMatch(/^spec: invalid JSON/);
  });

  it.each([
    ['a file that is not JSON', ['validate', 'not-json.json'], /^landlord: .*not-json\.json is not JSON: /],
    ['a missing file', ['validate', 'missing.json'], /^landlord: cannot read .*missing\.json: ENOENT$/],
    ['no file', ['validate'], /^landlord: missing required argument 'row\.json'$/],
    ['an unknown output format', ['validate', '-o', 'yaml', 'valid.json'], /^landlord: .*yaml.* is invalid/],
  ])('answers %s with one line and exit 2', async (_, args, error) => {
    const result = await landlord(args.map((arg) => (arg.endsWith('.json') ? file(arg) : arg)));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(lines(result.stderr)).toEqual([expect.stringMatching(error)]);
  });

  it('refuses a bad policy setting with one line naming it: exit 2', async () => {
    const result = await landlord(['validate', file('valid.json')], { LANDLORD_POD_SECURITY: 'strict' });
    expect(result.code).toBe(2);
    expect(lines(result.stderr)).toEqual([
      expect.stringMatching(/^landlord: LANDLORD_POD_SECURITY="strict"/),
    ]);
  });
});
