// History and rollback (issue 42), with the real API server, kube-controller-manager and moto:
// every spec sync applies becomes a ControllerRevision owned by its Tenant; `landlord history`
// (the built bin, and the same as a kubectl plugin) lists them with what each changed; `landlord
// rollback` writes a revision back to the table, only if the row still holds the newest revision,
// and sync applies it as any edit; a restart of sync continues the history without rewriting it;
// only LANDLORD_SYNC_HISTORY_LIMIT revisions are kept; deleting the Tenant takes them away.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { V1ControllerRevision } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, metricValue, type LandlordProcess } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  moreScans,
  putRow,
  readTenant,
  row,
  startSync,
  startSyncAndOperator,
  updateRow,
} from './support/sync.js';

const exec = promisify(execFile);
const { apps } = clients();
const table = uniqueName('history');
const name = uniqueName('hist');
/** Where sync keeps the revisions: its POD_NAMESPACE (startSync's). */
const NAMESPACE = 'default';
const SYNC_ENV = { LANDLORD_SYNC_HISTORY_LIMIT: '3', LANDLORD_SYNC_RESYNC_SECONDS: '10' };
/** An edit comes through the stream, or a resync's scan reads it first: either is how it came. */
const READ = /^(stream|scan)$/;
const BIN = join(repoRoot, 'dist', 'cli', 'landlord.js');

let sync: LandlordProcess;
let operator: LandlordProcess;
let pluginDir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const cliEnv = (): Record<string, string> =>
  componentEnv({ DYNAMODB_TABLE: table, POD_NAMESPACE: NAMESPACE });

async function landlord(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { env: cliEnv() });
    return { code: 0, stdout, stderr };
  } catch (err) {
    return err as Run;
  }
}

/** The table as users write it: the row's versions, each a spec (JSON text) and a change note. */
const first = { ...row(name, 'nginx:1.27'), changedBy: 'alice' };
const second = { spec: String(row(name, 'nginx:1.28').spec), changedBy: 'bob', changeReason: 'new nginx' };
function thirdSpec(): string {
  const deployment = JSON.parse(second.spec) as { spec: { replicas: number } };
  deployment.spec.replicas = 3;
  return JSON.stringify(deployment);
}
const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `${name}-config`, namespace: 'default' },
};
// A writer sets the whole note on every edit: one left in place would be shown again.
const third = {
  spec: thirdSpec(),
  customizations: JSON.stringify([configMap]),
  changedBy: 'carol',
  changeReason: 'scale up',
};

async function revisions(): Promise<V1ControllerRevision[]> {
  const list = await apps.listNamespacedControllerRevision({
    namespace: NAMESPACE,
    labelSelector: `landlord.dev/tenant=${name}`,
  });
  return list.items.sort((a, b) => a.revision - b.revision);
}

const numbers = async (): Promise<number[]> => (await revisions()).map((r) => r.revision);

/** Lists of revisions sync made: each one the API server answers by matching every tenant's revisions. */
const revisionLists = async (): Promise<number> =>
  metricValue(await sync.metrics(), 'landlord_api_requests_total', {
    verb: 'list',
    resource: 'controllerrevisions',
  });

/** Waits for the Tenant's status to name its newest revision. */
function waitForNamed(revision: number): Promise<true> {
  return waitUntil(
    `status.sync.revision ${revision} on ${name}`,
    async () => (await readTenant(name))?.status?.sync?.revision === revision,
    { timeoutMs: 60_000, abortIf: () => sync.assertRunning() },
  );
}

function waitForRevisions(expected: number[]): Promise<true> {
  return waitUntil(
    `revisions ${expected.join(', ')} of ${name}`,
    async () => JSON.stringify(await numbers()) === JSON.stringify(expected),
    { timeoutMs: 60_000, abortIf: () => sync.assertRunning() },
  );
}

const image = async (): Promise<string | undefined> =>
  (await apps.readNamespacedDeployment({ name: `${name}-app`, namespace: 'default' })).spec?.template.spec
    ?.containers[0]?.image;

async function readRow(): Promise<Record<string, { S?: string }>> {
  const out = await dynamoClient().send(
    new GetItemCommand({ TableName: table, Key: { name: { S: name } }, ConsistentRead: true }),
  );
  return out.Item as Record<string, { S?: string }>;
}

const rowImage = (item: Record<string, { S?: string }>): string | undefined =>
  (
    JSON.parse(item.spec?.S ?? '{}') as {
      spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
    }
  ).spec?.template?.spec?.containers?.[0]?.image;

/** The history table's data lines, split into its columns (two spaces or more apart). */
const historyRows = (text: string): string[][] =>
  text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(/ {2,}/));

beforeAll(async () => {
  await createTable(table);
  ({ sync, operator } = await startSyncAndOperator(table, SYNC_ENV));
  await sync.waitForLog((l) => l.msg === 'scan complete');
  pluginDir = await mkdtemp(join(tmpdir(), 'landlord-plugin-'));
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  if (pluginDir !== undefined) await rm(pluginDir, { recursive: true, force: true });
});

describe('history and rollback', () => {
  it('keeps each edit as a revision owned by the Tenant, and lists them with what each changed', async () => {
    await putRow(table, first);
    await waitForRevisions([1]);
    await updateRow(table, name, second);
    await waitForRevisions([1, 2]);
    await updateRow(table, name, third);
    await waitForRevisions([1, 2, 3]);
    // Each next revision was found from the status, by name: no list of revisions at all.
    await waitForNamed(3);
    expect(await revisionLists()).toBe(0);

    const tenant = await readTenant(name);
    expect(tenant!.status?.sync?.revisionHash).toBe(tenant!.metadata.annotations?.['landlord.dev/row-hash']);
    const [revision] = await revisions();
    expect(revision!.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Tenant', name, uid: tenant!.metadata.uid }),
    ]);
    const data = revision!.data as { source: string; row: { name: string; changedBy?: string } };
    expect(data.source).toMatch(READ);
    expect(data.row).toMatchObject({ name, changedBy: 'alice' });

    const history = await landlord('history', name);
    expect(history).toMatchObject({ code: 0, stderr: '' });
    expect(history.stdout.split('\n')[0]).toMatch(/^REVISION +APPLIED +SOURCE +CHANGED BY +CHANGE$/);
    expect(historyRows(history.stdout).map(([n, , source, by, change]) => [n, source, by, change])).toEqual([
      ['1', expect.stringMatching(READ), 'alice', 'first revision kept: image nginx:1.27'],
      ['2', expect.stringMatching(READ), 'bob', 'image nginx:1.27 → nginx:1.28 ("new nginx")'],
      ['3', expect.stringMatching(READ), 'carol', 'replicas 1 → 3, configMaps +1 ("scale up")'],
    ]);

    const json = await landlord('history', name, '-o', 'json', '--namespace', NAMESPACE);
    const parsed = JSON.parse(json.stdout) as {
      revisions: { revision: number; source: string; summary: string }[];
    };
    expect(parsed.revisions.map((r) => r.summary)).toEqual(
      historyRows(history.stdout).map((r) => r[4]!.replace(/ \(".*"\)$/, '')),
    );

    const diff = await landlord('history', name, '--revision', '2');
    expect(diff.code).toBe(0);
    expect(diff.stdout).toContain('changes against revision 1:');
    expect(diff.stdout).toContain(
      'deployment.spec.template.spec.containers[0].image: "nginx:1.27" → "nginx:1.28"',
    );
    expect(diff.stdout).toContain('reason: new nginx');
  });

  it('works as a kubectl plugin: kubectl landlord history', async () => {
    const launcher = join(repoRoot, 'dist', 'cli', 'kubectl-landlord.js');
    await chmod(launcher, 0o755);
    await symlink(launcher, join(pluginDir, 'kubectl-landlord'));
    const env = cliEnv();
    const path = [pluginDir, dirname(process.execPath), env.PATH].join(':');
    const { stdout } = await exec('kubectl', ['landlord', 'history', name], { env: { ...env, PATH: path } });
    expect(historyRows(stdout).map((r) => r[0])).toEqual(['1', '2', '3']);
  });

  it('stays at zero revision writes while nothing changes', async () => {
    await moreScans(sync, 1);
    expect(await numbers()).toEqual([1, 2, 3]);
  });

  it('refuses a rollback when the row changed since the newest revision, and changes nothing', async () => {
    // sync stopped: the edit below is in the table and in no revision.
    expect(await sync.stop()).toBe(0);
    const edited = String(row(name, 'nginx:1.29').spec);
    await updateRow(table, name, { spec: edited });
    const refused = await landlord('rollback', name, '--to-revision', '1');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^landlord: rollback: the row of tenant \S+ changed since revision 3 was recorded/,
    );
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const item = await readRow();
    expect(rowImage(item)).toBe('nginx:1.29');
    expect(item.changedBy?.S).toBe('carol');
    expect(item).not.toHaveProperty('rollbackHash');
    // The row back as revision 3 recorded it, for the restart below.
    await updateRow(table, name, { spec: third.spec });
  });

  it('continues the history after a restart of sync, without writing a revision for an unchanged row', async () => {
    sync = startSync(table, SYNC_ENV);
    await sync.ready();
    await moreScans(sync, 1);
    expect(await numbers()).toEqual([1, 2, 3]);
    expect(sync.logs.filter((l) => l.msg === 'recorded a revision of the tenant')).toEqual([]);
  });

  it('rolls back to revision 1 through the table: --dry-run first, then the write sync applies', async () => {
    const dry = await landlord('rollback', name, '--to-revision', '1', '--dry-run');
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(dry.stdout).toContain('would roll back to revision 1 (now at 3)');
    expect(dry.stdout).toContain('dry run: nothing written');
    expect(rowImage(await readRow())).toBe('nginx:1.28');

    const done = await landlord('rollback', name, '--to-revision', '1');
    expect(done).toMatchObject({ code: 0, stderr: '' });
    const item = await readRow();
    expect(rowImage(item)).toBe('nginx:1.27');
    expect(item.changedBy?.S).toBe('landlord rollback');
    expect(item.changeReason?.S).toBe('rollback to revision 1');

    await waitUntil('the Deployment back on nginx:1.27', async () => (await image()) === 'nginx:1.27', {
      timeoutMs: 60_000,
      abortIf: () => operator.assertRunning(),
    });
    // Revision 4, and with a limit of 3 revision 1 is pruned: 2, 3, 4 are kept.
    await waitForRevisions([2, 3, 4]);
    const history = await landlord('history', name);
    expect(historyRows(history.stdout).at(-1)).toEqual([
      '4',
      expect.any(String),
      'rollback',
      'landlord rollback',
      'image nginx:1.28 → nginx:1.27, replicas 3 → 1, configMaps -1 ("rollback to revision 1")',
    ]);
  });

  it('refuses a revision it no longer keeps', async () => {
    const gone = await landlord('rollback', name, '--to-revision', '1');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('has no revision 1 (kept: 2, 3, 4)');
  });

  it('takes the next free number when the status is behind or a name is held by something else', async () => {
    await waitForNamed(4);
    const newest = (await revisions()).at(-1)!;
    // Revision 5 as if sync wrote it and its status write was lost; `<name>-6`, no revision at all.
    const { labels, ownerReferences } = newest.metadata!;
    const data = { ...(newest.data as object), hash: 'content-of-no-row' };
    await apps.createNamespacedControllerRevision({
      namespace: NAMESPACE,
      body: { metadata: { name: `${name}-5`, labels, ownerReferences }, data, revision: 5 },
    });
    await apps.createNamespacedControllerRevision({
      namespace: NAMESPACE,
      body: { metadata: { name: `${name}-6` }, data: {}, revision: 1 },
    });
    const listsBefore = await revisionLists();

    await updateRow(table, name, { spec: String(row(name, 'nginx:1.30').spec) });
    await waitForRevisions([4, 5, 7]);
    await waitForNamed(7);
    // One list per name found taken, then the history goes on from 7 by name.
    expect((await revisionLists()) - listsBefore).toBe(2);
    await apps.deleteNamespacedControllerRevision({ namespace: NAMESPACE, name: `${name}-6` });
  });

  it('loses the revisions with the Tenant, to the garbage collector', async () => {
    await putRow(table, { ...first, deleted: true });
    await waitUntil('the Tenant to go', async () => (await readTenant(name)) === undefined, {
      timeoutMs: 60_000,
    });
    await waitUntil('its revisions to go', async () => (await numbers()).length === 0, { timeoutMs: 90_000 });
  });
});
