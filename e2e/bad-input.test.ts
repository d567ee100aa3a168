// The corpus of bad rows (e2e/testdata/bad-rows, one JSON file per case), put into one table next
// to valid rows, with sync and the operator running: each bad row gets its specific reason on its
// Tenant, an Event and a log line naming the tenant (or, when no Tenant can carry its name, a log
// line and the invalid-rows metric), and the valid rows' Tenants are Ready all the same. One file:
// the point is that all the bad rows sit in one table together with good ones.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import { SYNC_LOG } from '../sync/reasons.js';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { dynamoClient } from './support/dynamo.js';
import { clients, uniqueName } from './support/env.js';
import { componentEnv, metricValue, startLandlord, type LandlordProcess } from './support/landlord.js';
import { deploymentManifest } from './support/tenants.js';
import {
  batchWrite,
  createTable,
  deleteSyncedTenants,
  eventsFor,
  eventsWritten,
  lowLevel,
  putRow,
  readTenant,
  startSync,
  syncedCondition,
} from './support/sync.js';

type Condition = 'Synced' | 'Applied' | 'Ready' | 'none' | 'put';

interface BadRow {
  file: string;
  description: string;
  form: 'document' | 'attributeValue';
  row: Record<string, unknown>;
  expect: { condition: Condition; reason: string | null; message: string };
  /** Tenants that must be Ready before this row is put (the first owner of a child). */
  after?: string[];
}

const CORPUS = join(repoRoot, 'e2e', 'testdata', 'bad-rows');
const { apps, core } = clients();
const dynamo = dynamoClient();
const prefix = uniqueName('bad');
const ns = prefix;
const table = prefix;
let sync: LandlordProcess;
let operator: LandlordProcess;
/** What DynamoDB answered to each put: undefined when it took the row. */
const putErrors = new Map<string, string | undefined>();

/** {{prefix}}, {{ns}} and {{repeat N c}} in every string of a case, keys included. */
function expand<T>(value: T): T {
  const text = (s: string): string =>
    s
      .replaceAll('{{prefix}}', prefix)
      .replaceAll('{{ns}}', ns)
      .replace(/\{\{repeat (\d+) (.)\}\}/g, (_, n: string, c: string) => c.repeat(Number(n)));
  if (typeof value === 'string') return text(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => expand(v)) as T;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), expand(v as unknown)])) as T;
  return value;
}

const corpus: BadRow[] = readdirSync(CORPUS)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) =>
    expand({ file, ...(JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as Omit<BadRow, 'file'>) }),
  );

const nameOf = (c: BadRow): string => {
  const name = c.row.name;
  return typeof name === 'string' ? name : String((name as { S?: string }).S);
};
const byCondition = (condition: Condition): BadRow[] =>
  corpus.filter((c) => c.expect.condition === condition);

async function put(c: BadRow): Promise<void> {
  try {
    if (c.form === 'document') await putRow(table, c.row);
    else
      await dynamo.send(
        new PutItemCommand({ TableName: table, Item: c.row as Record<string, AttributeValue> }),
      );
    putErrors.set(c.file, undefined);
  } catch (err) {
    putErrors.set(c.file, `${(err as Error).name}: ${(err as Error).message}`);
  }
}

const conditionOf = (t: Tenant | undefined, type: string) =>
  t?.status?.conditions?.find((c) => c.type === type);
const current = (t: Tenant, type: string): boolean =>
  conditionOf(t, type)?.observedGeneration === t.metadata.generation;

/** The Tenant once `check` holds for it. */
function tenantWhere(name: string, what: string, check: (t: Tenant) => boolean): Promise<Tenant> {
  return waitUntil(
    `Tenant ${name}: ${what}`,
    async () => {
      const tenant = await readTenant(name);
      return tenant !== undefined && check(tenant) ? tenant : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

const readyTrue = (name: string): Promise<Tenant> =>
  tenantWhere(
    name,
    'Ready=True',
    (t) => conditionOf(t, CONDITION.ready)?.status === 'True' && current(t, CONDITION.ready),
  );

async function expectEvent(name: string, reason: string, source: string): Promise<void> {
  const events = await eventsWritten(name, reason);
  expect(events[0]?.type).toBe('Warning');
  expect(events[0]?.source?.component).toBe(source);
}

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: ns } } });
  await createTable(table);
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5', LANDLORD_LOG_LEVEL: 'info' });
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await Promise.all([sync.ready(), operator.ready()]);
  for (const c of corpus.filter((x) => x.after === undefined)) await put(c);
  for (const c of corpus.filter((x) => x.after !== undefined)) {
    for (const owner of c.after!) await readyTrue(owner);
    await put(c);
  }
});

afterAll(async () => {
  expect(await sync.stop()).toBe(0);
  expect(await operator.stop()).toBe(0);
  await deleteSyncedTenants(table);
  await core.deleteNamespace({ name: ns });
});

describe('rows DynamoDB itself refuses', () => {
  it.each(byCondition('put'))('$file: $description', (c) => {
    expect(putErrors.get(c.file)).toContain(c.expect.message);
  });
});

describe('rows whose name no Tenant can have', () => {
  it.each(byCondition('none'))('$file: $description', async (c) => {
    const raw = nameOf(c).slice(0, 64);
    const line = await sync.waitForLog((l) => l.msg === SYNC_LOG.invalidName && l.rawName === raw, 60_000);
    expect(String(line.problem)).toContain(c.expect.message);
    expect(await readTenant(nameOf(c).toLowerCase()).catch(() => undefined)).toBeUndefined();
  });
});

describe('rows sync refuses: Synced=False', () => {
  it.each(byCondition('Synced'))('$file: $description', async (c) => {
    const name = nameOf(c);
    const reason = c.expect.reason!;
    const tenant = await tenantWhere(
      name,
      `Synced=False ${reason}`,
      (t) => syncedCondition(t)?.reason === reason,
    );
    expect(syncedCondition(tenant)?.status).toBe('False');
    expect(syncedCondition(tenant)?.message).toContain(c.expect.message);
    // Never a valid spec: nothing to run, and READY/REASON name sync's refusal, the root cause.
    expect(tenant.spec?.deployment).toBeUndefined();
    await tenantWhere(
      name,
      `Ready=False ${reason}`,
      (t) => conditionOf(t, CONDITION.ready)?.reason === reason,
    );
    await expectEvent(name, reason, 'landlord-sync');
    await sync.waitForLog(
      (l) => (l.msg === SYNC_LOG.refused || l.msg === SYNC_LOG.rejected) && l.tenant === name,
    );
  });
});

describe('rows the operator refuses: Applied=False', () => {
  it.each(byCondition('Applied'))('$file: $description', async (c) => {
    const name = nameOf(c);
    const reason = c.expect.reason!;
    const tenant = await tenantWhere(
      name,
      `Applied=False ${reason}`,
      (t) => conditionOf(t, CONDITION.applied)?.reason === reason && current(t, CONDITION.applied),
    );
    expect(conditionOf(tenant, CONDITION.applied)?.status).toBe('False');
    expect(conditionOf(tenant, CONDITION.applied)?.message).toContain(c.expect.message);
    expect(conditionOf(tenant, CONDITION.ready)).toMatchObject({ status: 'False', reason });
    expect(syncedCondition(tenant)?.status).toBe('True');
    await expectEvent(name, reason, 'landlord-operator');
    await operator.waitForLog((l) => l.tenant === name && l.reason === reason);
    // A refused spec applies nothing: no Deployment of its own name exists.
    const deployment = tenant.spec?.deployment;
    if (reason !== 'Conflict' && deployment?.metadata?.namespace === ns) {
      const found = await apps
        .readNamespacedDeployment({ name: deployment.metadata.name!, namespace: ns })
        .then(
          () => true,
          () => false,
        );
      expect(found).toBe(false);
    }
  });
});

describe('the valid rows next to them', () => {
  it.each(byCondition('Ready'))('$file: $description', async (c) => {
    const tenant = await readyTrue(nameOf(c));
    expect(conditionOf(tenant, CONDITION.ready)?.message).toContain(c.expect.message);
    expect(syncedCondition(tenant)?.status).toBe('True');
  });

  it('the first owner keeps the children others claimed', async () => {
    const owner = await readyTrue(`${prefix}-valid-owner`);
    const d = await apps.readNamespacedDeployment({ name: `${prefix}-valid-owner-app`, namespace: ns });
    const cm = await core.readNamespacedConfigMap({ name: `${prefix}-valid-owner-config`, namespace: ns });
    for (const child of [d, cm])
      expect(child.metadata?.ownerReferences?.map((o) => o.uid)).toEqual([owner.metadata.uid]);
  });

  it('landlord_sync_invalid_rows counts every row that fails validation', async () => {
    const invalid =
      byCondition('none').length + corpus.filter((c) => c.expect.reason === 'InvalidRecord').length;
    await waitUntil(
      `landlord_sync_invalid_rows to be ${invalid}`,
      async () => metricValue(await sync.metrics(), 'landlord_sync_invalid_rows') === invalid,
      { timeoutMs: 30_000 },
    );
  });
});

describe('two rows that claim the same Deployment at the same moment', () => {
  it('end with exactly one owner, Ready, and the other refused with Conflict naming it, never having written it', async () => {
    const pairs = Array.from({ length: 10 }, (_, i) => [`${prefix}-race-${i}-a`, `${prefix}-race-${i}-b`]);
    const claim = (tenant: string, i: number): Record<string, unknown> => ({
      name: tenant,
      spec: JSON.stringify(deploymentManifest(`${prefix}-race-${i}-app`, ns)),
      customizations: '[]',
      deleted: false,
    });
    await batchWrite(
      table,
      pairs.flatMap((pair, i) => pair.map((t) => ({ PutRequest: { Item: lowLevel(claim(t, i)) } }))),
    );
    for (const [i, pair] of pairs.entries()) {
      const settled = await waitUntil(
        `one of ${pair.join(' and ')} Ready, the other refused`,
        async () => {
          const both = await Promise.all(pair.map((name) => readTenant(name)));
          const ready = both.filter((t) => conditionOf(t, CONDITION.ready)?.status === 'True');
          const refused = both.filter((t) => conditionOf(t, CONDITION.applied)?.reason === 'Conflict');
          return ready.length === 1 && refused.length === 1
            ? { owner: ready[0]!, refused: refused[0]! }
            : undefined;
        },
        { timeoutMs: 90_000, intervalMs: 500 },
      );
      const d = await apps.readNamespacedDeployment({ name: `${prefix}-race-${i}-app`, namespace: ns });
      expect(d.metadata?.ownerReferences?.map((o) => o.uid)).toEqual([settled.owner.metadata.uid]);
      expect(conditionOf(settled.refused, CONDITION.applied)?.message).toContain(
        `is owned by Tenant ${settled.owner.metadata.name}`,
      );
      // The one refused never wrote the Deployment: writing it would have taken it from the other.
      const created = await eventsFor(settled.refused.metadata.name!, 'Created');
      expect(created.map((e) => e.message).filter((m) => m?.startsWith('Created Deployment'))).toEqual([]);
    }
  });
});
