// `landlord plan` against the real API server and moto: a table that sync and the operator have
// converged plans to nothing; then, with both stopped, rows are added, edited, removed beyond the
// takedown budget and refused, a Deployment is edited by hand, and the plan names each kind. It
// runs as a ServiceAccount that may only read, and the API server's own counters show it wrote
// nothing. Finally the components run again, and the plan of what they converged to is empty.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import type { Plan, TenantPlan } from '../cli/plan/plan.js';
import { requestCounts, type ApiServerAccess, type RequestCounts } from '../harness/apiserver-requests.js';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { quietCounts } from './support/cluster-settle.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, envValue, kubeConfig, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { serviceAccountKubeconfig } from './support/service-account.js';
import { createTenant, tenantManifest } from './support/tenants.js';
import {
  createTable,
  deleteRow,
  deleteSyncedTenants,
  putRow,
  readTenant,
  row,
  startSync,
  syncedCondition,
  updateRow,
} from './support/sync.js';

const exec = promisify(execFile);
const table = uniqueName('plan');
const prefix = uniqueName('p');
const n = (suffix: string): string => `${prefix}-${suffix}`;
const READER = n('reader');

/** The tenants of the story. Takedowns are approved in name order: the archived row first, then the gone ones. */
const KEEP = [n('keep-1'), n('keep-2')];
const UPDATED = n('updated');
const DRIFTED = n('drifted');
const GONE = [n('gone-1'), n('gone-2'), n('gone-3'), n('gone-4')];
const MARKED = n('marked-deleted');
const REFUSED_BEFORE = n('refused-before');
const NEW = n('new');
const NEW_REFUSED = n('new-privileged');
const NEW_INVALID = n('new-invalid');
const SUSPENDED = n('suspended');
const ARCHIVED = n('archived');
const PAUSED = n('paused');
/** A Tenant made with kubectl, then named by a row: sync leaves it alone and plan says so. */
const BY_HAND = n('by-hand');

/** A row whose only container asks for a privileged pod: the operator's policy refuses it. */
function privilegedRow(name: string): Record<string, unknown> {
  const valid = row(name);
  const deployment = JSON.parse(valid.spec as string) as {
    spec: { template: { spec: { containers: Record<string, unknown>[] } } };
  };
  deployment.spec.template.spec.containers[0]!.securityContext = { privileged: true };
  return { ...valid, spec: JSON.stringify(deployment) };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let readerKubeconfig: string;

/** The built bin, as the read-only ServiceAccount, with a takedown budget of 2 per interval. */
async function plan(args: string[] = ['-o', 'json']): Promise<Run> {
  const env = componentEnv({
    KUBECONFIG: readerKubeconfig,
    DYNAMODB_TABLE: table,
    LANDLORD_SYNC_MAX_DELETE_FRACTION: '0',
    LANDLORD_SYNC_MAX_DELETE_MINIMUM: '2',
  });
  try {
    const { stdout, stderr } = await exec(
      process.execPath,
      [join(repoRoot, 'dist', 'cli', 'landlord.js'), 'plan', ...args],
      { env },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    return err as Run;
  }
}

const planJson = async (): Promise<{ run: Run; plan: Plan }> => {
  const run = await plan();
  return { run, plan: JSON.parse(run.stdout) as Plan };
};

const entry = (p: Plan, name: string): TenantPlan | undefined => p.tenants.find((t) => t.name === name);
const ours = (p: Plan): TenantPlan[] => p.tenants.filter((t) => t.name.startsWith(prefix));

function access(): ApiServerAccess {
  const token = kubeConfig().getCurrentUser()?.token;
  if (token === undefined) throw new Error('the e2e kubeconfig has no token');
  return { server: envValue('LANDLORD_E2E_API_SERVER'), caFile: envValue('LANDLORD_E2E_CA_FILE'), token };
}

const LANDLORD_OBJECTS = new Set([
  'tenants',
  'tenants/status',
  'deployments',
  'deployments/status',
  'configmaps',
]);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE', 'DELETECOLLECTION', 'CREATE', 'UPDATE']);

/** Writes to Tenants, Deployments and ConfigMaps between two readings of the API server's counters. */
function objectWrites(before: RequestCounts, after: RequestCounts): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [key, value] of after.requests) {
    const [verb = '', resource = ''] = key.split(' ');
    const count = value - (before.requests.get(key) ?? 0);
    if (count > 0 && WRITES.has(verb) && LANDLORD_OBJECTS.has(resource)) moved[key] = count;
  }
  return moved;
}

async function scanTable(): Promise<unknown[]> {
  const out = await dynamoClient().send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  return (out.Items ?? []).sort((a, b) => String(a.name?.S).localeCompare(String(b.name?.S)));
}

const condition = (t: Tenant | undefined, type: string) =>
  t?.status?.conditions?.find((c) => c.type === type);

const isReady = (t: Tenant | undefined): boolean =>
  condition(t, CONDITION.ready)?.status === 'True' && syncedCondition(t)?.status === 'True';

/** Ready=False for the current generation: a suspended, archived or paused tenant. */
const isResting = (t: Tenant | undefined): boolean => {
  const ready = condition(t, CONDITION.ready);
  return ready?.status === 'False' && ready.observedGeneration === t?.metadata.generation;
};

const isRefused = (t: Tenant | undefined): boolean => condition(t, CONDITION.applied)?.status === 'False';

/**
 * Every tenant of the table is where the components leave it: Ready, or refused and saying so, or
 * resting in the state its row (or a person) asks for.
 */
async function converged(ready: string[], refused: string[], resting: string[] = []): Promise<void> {
  const expected: [string[], (t: Tenant | undefined) => boolean][] = [
    [ready, isReady],
    [resting, isResting],
    [refused, isRefused],
  ];
  await waitUntil(
    'the tenants to converge',
    async () => {
      for (const [names, holds] of expected) {
        for (const name of names) if (!holds(await readTenant(name))) return false;
      }
      return true;
    },
    { timeoutMs: 120_000 },
  );
}

function startComponents(): LandlordProcess[] {
  return [
    startSync(table, {
      LANDLORD_SYNC_RESYNC_SECONDS: '2',
      LANDLORD_SYNC_MAX_DELETE_FRACTION: '0',
      LANDLORD_SYNC_MAX_DELETE_MINIMUM: '2',
    }),
    startLandlord('operator', componentEnv()),
  ];
}

async function stopAll(processes: LandlordProcess[]): Promise<void> {
  for (const code of await Promise.all(processes.map((p) => p.stop()))) expect(code).toBe(0);
}

/** A ServiceAccount bound to the sample ClusterRole for plans: it may only get and list. */
async function createReader(): Promise<string> {
  await kubectl('create', 'serviceaccount', READER, '-n', 'default');
  await kubectl('apply', '--server-side', '-f', join(repoRoot, 'config', 'samples', 'plan-reader.yaml'));
  await kubectl(
    'create',
    'clusterrolebinding',
    READER,
    '--clusterrole=landlord-plan',
    `--serviceaccount=default:${READER}`,
  );
  return serviceAccountKubeconfig('default', READER);
}

beforeAll(async () => {
  readerKubeconfig = await createReader();
  await createTable(table);
  const before = [...KEEP, UPDATED, DRIFTED, ...GONE, MARKED, SUSPENDED, ARCHIVED, PAUSED];
  for (const name of before) await putRow(table, row(name));
  await putRow(table, privilegedRow(REFUSED_BEFORE));
  const components = startComponents();
  await converged(before, [REFUSED_BEFORE]);
  await stopAll(components);
});

afterAll(async () => {
  await deleteSyncedTenants(table);
  await kubectl('delete', 'tenant', BY_HAND, '--ignore-not-found');
  await kubectl('delete', 'clusterrolebinding', READER);
  await kubectl('delete', 'clusterrole', 'landlord-plan');
  await kubectl('delete', 'serviceaccount', READER, '-n', 'default');
});

describe('landlord plan', () => {
  it('plans nothing for a table the components converged: exit 0, only the known refusal listed', async () => {
    const { run, plan: result } = await planJson();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(result.changes).toBe(false);
    const changed = ours(result).filter((t) => t.kind !== 'unchanged');
    expect(changed.map((t) => [t.name, t.kind, t.writes])).toEqual([[REFUSED_BEFORE, 'refused', false]]);
  });

  describe('after the table changed and a Deployment was edited by hand', () => {
    let result: Plan;
    let run: Run;
    let writes: Record<string, number>;
    let tableBefore: unknown[];

    beforeAll(async () => {
      await putRow(table, row(NEW));
      await putRow(table, privilegedRow(NEW_REFUSED));
      await putRow(table, { name: NEW_INVALID, spec: '{"kind":', customizations: '[]', deleted: false });
      await putRow(table, { name: `Not_A_Name_${prefix}`, spec: '{}', deleted: false });
      await updateRow(table, UPDATED, { spec: row(UPDATED, 'nginx:1.28').spec });
      await updateRow(table, MARKED, { deleted: true });
      for (const name of GONE) await deleteRow(table, name);
      await kubectl('scale', 'deployment', `${DRIFTED}-app`, '-n', 'default', '--replicas=3');
      await updateRow(table, SUSPENDED, { state: 'suspended' });
      await updateRow(table, ARCHIVED, { state: 'archived' });
      await kubectl('annotate', 'tenant', PAUSED, 'landlord.dev/paused=true');
      await kubectl('scale', 'deployment', `${PAUSED}-app`, '-n', 'default', '--replicas=3');
      await createTenant(clients().custom, tenantManifest(BY_HAND, 'default', 0));
      await putRow(table, row(BY_HAND, 'nginx:9.9'));
      tableBefore = await scanTable();
      const { counts: countsBefore } = await quietCounts(access(), { timeoutMs: 120_000 });
      ({ run, plan: result } = await planJson());
      writes = objectWrites(countsBefore, await requestCounts(access()));
    });

    it('exits 2 and says so in the summary', () => {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(2);
      expect(result.changes).toBe(true);
    });

    it('creates a new row: the Tenant and its Deployment', () => {
      expect(entry(result, NEW)).toMatchObject({
        kind: 'create',
        writes: true,
        children: [{ action: 'create', child: `Deployment default/${NEW}-app` }],
      });
    });

    it('updates an edited row with a diff of the spec, and the Deployment it changes', () => {
      expect(entry(result, UPDATED)).toMatchObject({
        kind: 'update',
        specChanges: ['deployment.spec.template.spec.containers[0].image: "nginx:1.27" → "nginx:1.28"'],
        children: [{ action: 'update', child: `Deployment default/${UPDATED}-app` }],
      });
    });

    it('repairs a Deployment edited by hand', () => {
      expect(entry(result, DRIFTED)).toMatchObject({
        kind: 'update',
        specChanges: [],
        children: [{ action: 'update', child: `Deployment default/${DRIFTED}-app` }],
      });
    });

    it("updates a suspended row's Deployment and deletes an archived row's children, the state in the spec diff", () => {
      expect(entry(result, SUSPENDED)).toMatchObject({
        kind: 'update',
        specChanges: ['state: "active" → "suspended"'],
        children: [{ action: 'update', child: `Deployment default/${SUSPENDED}-app` }],
      });
      expect(entry(result, ARCHIVED)).toMatchObject({
        kind: 'update',
        specChanges: ['state: "active" → "archived"'],
        children: [{ action: 'delete', child: `Deployment default/${ARCHIVED}-app` }],
      });
    });

    it('leaves the children of a paused Tenant alone, edited by hand or not', () => {
      expect(entry(result, PAUSED)).toMatchObject({ kind: 'unchanged', writes: false, children: [] });
      expect(entry(result, PAUSED)?.note).toMatch(/^paused by the annotation landlord.dev\/paused=true/);
    });

    it('deletes within the budget and holds back the rest, in name order, whatever the cause', () => {
      // One budget of 2 for every takedown: the archived row sorts first and takes one of them.
      expect(GONE.map((name) => entry(result, name)?.kind)).toEqual([
        'delete',
        'heldBack',
        'heldBack',
        'heldBack',
      ]);
      expect(entry(result, GONE[1]!)?.writes).toBe(false);
      // `deleted: true` shares the budget: it sorts after the gone rows, so it waits its turn.
      expect(entry(result, MARKED)).toMatchObject({ kind: 'heldBack', writes: false });
      expect(entry(result, MARKED)?.note).toMatch(/^the row says deleted: true, but the takedown budget/);
    });

    it('shows a row naming a Tenant sync did not make as not owned: nothing written to it', () => {
      expect(entry(result, BY_HAND)).toMatchObject({ kind: 'notOwned', writes: false, children: [] });
      expect(entry(result, BY_HAND)?.note).toContain('not labelled managed-by landlord-sync');
    });

    it("refuses with the policy's reason and the row check's, and a known refusal stays quiet", () => {
      expect(entry(result, NEW_REFUSED)).toMatchObject({
        kind: 'refused',
        writes: true,
        refusal: { condition: 'Applied', reason: 'PodSecurityViolation' },
      });
      expect(entry(result, NEW_INVALID)).toMatchObject({
        kind: 'refused',
        writes: true,
        refusal: { condition: 'Synced', reason: 'InvalidRecord' },
      });
      expect(entry(result, REFUSED_BEFORE)).toMatchObject({ kind: 'refused', writes: false });
      expect(result.unnamedRows.some((p) => p.message.includes('Not_A_Name'))).toBe(true);
    });

    it('leaves the rest unchanged', () => {
      for (const name of KEEP)
        expect(entry(result, name)).toMatchObject({ kind: 'unchanged', writes: false });
    });

    it('wrote nothing: no write to Tenants, Deployments or ConfigMaps on the API server, the table as it was', async () => {
      expect(writes).toEqual({});
      expect(await scanTable()).toEqual(tableBefore);
    });

    it('prints each kind for people, with a summary line', async () => {
      const text = await plan([]);
      expect(text.code).toBe(2);
      const lines = text.stdout.split('\n');
      expect(lines).toContain(`+ ${NEW} (create)`);
      expect(lines).toContain(
        `    spec: deployment.spec.template.spec.containers[0].image: "nginx:1.27" → "nginx:1.28"`,
      );
      expect(lines.some((l) => l.startsWith(`- ${GONE[0]} (delete)`))).toBe(true);
      expect(lines.some((l) => l.startsWith(`! ${GONE[3]} (held back)`))).toBe(true);
      expect(lines.some((l) => l.startsWith(`# ${BY_HAND} (not owned by this sync, left alone)`))).toBe(true);
      expect(lines.some((l) => l.startsWith(`x ${NEW_REFUSED} (refused)`))).toBe(true);
      expect(lines.some((l) => l.startsWith('    Applied=False PodSecurityViolation: '))).toBe(true);
      expect(lines.some((l) => l.startsWith(`x ${REFUSED_BEFORE} (refused, already reported)`))).toBe(true);
      expect(lines.find((l) => l.startsWith('Plan: '))).toMatch(
        /^Plan: \d+ to create, \d+ to update, \d+ to delete, \d+ held back, \d+ refused, \d+ unchanged, \d+ not owned/,
      );
    });

    it('plans nothing once the components have carried it out', async () => {
      const components = startComponents();
      await converged(
        [...KEEP, UPDATED, DRIFTED, NEW],
        [REFUSED_BEFORE, NEW_REFUSED],
        [SUSPENDED, ARCHIVED, PAUSED],
      );
      await waitUntil(
        'every gone row deleted',
        async () => {
          for (const name of [...GONE, MARKED]) if ((await readTenant(name)) !== undefined) return false;
          return true;
        },
        { timeoutMs: 120_000 },
      );
      await stopAll(components);
      const after = await planJson();
      expect(after.run.code).toBe(0);
      expect(ours(after.plan).filter((t) => t.writes)).toEqual([]);
      // The `deleted: true` row outlives its Tenant: nothing to do, and nothing refused.
      expect(entry(after.plan, MARKED)).toMatchObject({ kind: 'unchanged', writes: false });
      // The Tenant made by hand is still there, still not sync's.
      expect(entry(after.plan, BY_HAND)).toMatchObject({ kind: 'notOwned', writes: false });
      expect((await readTenant(BY_HAND))?.metadata.labels?.['landlord.dev/source-table']).toBeUndefined();
    });
  });

  it('exits 1 with one line when it cannot plan: a missing table', async () => {
    const result = await exec(process.execPath, [join(repoRoot, 'dist', 'cli', 'landlord.js'), 'plan'], {
      env: componentEnv({ DYNAMODB_TABLE: 'no-such-table-here' }),
    }).then(
      () => ({ code: 0, stderr: '' }),
      (err: Run) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('DYNAMODB_TABLE "no-such-table-here"');
  });
});
