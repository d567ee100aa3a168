// `landlord plan` decides as the operator does, on the real control plane with sync and the operator
// running: a row whose pods carry an older tenant's labels (LabelConflict), one whose templated host
// a hand-made Ingress outside tenant namespaces serves (HostConflict), a row asking for a custom host
// an older tenant holds (only that host is withheld: the tenant runs), and ordinary rows. Before the
// operator has judged the newer rows the plan already names their refusal and the withheld host;
// once it has, the plan names the very reason and message the Tenant's Applied condition says, as
// already reported, the withheld host as HostsReady names it, and the rest as unchanged.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NetworkingV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION, type Tenant } from '../api/tenant.js';
import type { Plan, TenantPlan } from '../cli/plan/plan.js';
import { repoRoot } from '../harness/paths.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, ready, refusedWith } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTable, deleteSyncedTenants, putRow, readTenant, row, startSync } from './support/sync.js';

const exec = promisify(execFile);
const { custom, kc } = clients();
const networking = kc.makeApiClient(NetworkingV1Api);
const id = uniqueName('pc');
const table = `${id}-table`;
const CLASS = `${id}-web`;
const SHOP = `shop-${id}.example.org`;

const ORDINARY = `${id}-ordinary`;
/** The older of two rows whose pods carry the same labels, in the shared namespace. */
const LABELS_OLDER = `${id}-labels-a`;
const LABELS_NEWER = `${id}-labels-b`;
/** The older of two rows asking for one host. */
const HOST_OLDER = `${id}-host-a`;
const HOST_NEWER = `${id}-host-b`;
/** A row whose templated host an Ingress made by hand already serves. */
const HAND_HELD = `${id}-hand`;
const HAND_INGRESS = `${id}-by-hand`;
const NEWER = [LABELS_NEWER, HAND_HELD];
const EXPECTED: Record<string, string> = {
  [LABELS_NEWER]: 'LabelConflict',
  [HAND_HELD]: 'HostConflict',
};
/** What the plan and HostsReady say of HOST_NEWER's custom host: withheld, held by the older one. */
const WITHHELD = { host: SHOP, reason: 'HostConflict', holder: `Tenant ${HOST_OLDER}` };

let operator: LandlordProcess | undefined;
let sync: LandlordProcess | undefined;

/** A row of the shared namespace whose pods carry `labelsOf`'s labels, under a Deployment of its own. */
function rowLabelledAs(name: string, labelsOf: string): Record<string, unknown> {
  const deployment = JSON.parse(row(name).spec as string) as {
    spec: { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: object } } };
  };
  deployment.spec.selector.matchLabels = { app: labelsOf };
  deployment.spec.template.metadata.labels = { app: labelsOf };
  return { ...row(name), spec: JSON.stringify(deployment) };
}

const exposedRow = (name: string, hosts?: string[]): Record<string, unknown> => ({
  ...row(name),
  class: CLASS,
  ...(hosts === undefined ? {} : { hosts }),
});

async function planJson(): Promise<{ code: number; plan: Plan }> {
  const env = componentEnv({ DYNAMODB_TABLE: table });
  const bin = join(repoRoot, 'dist', 'cli', 'landlord.js');
  const run = await exec(process.execPath, [bin, 'plan', '-o', 'json'], { env }).then(
    (out) => ({ code: 0, stdout: out.stdout }),
    (err: { code: number; stdout: string; stderr: string }) => {
      if (err.code !== 2) throw new Error(`landlord plan exited ${err.code}: ${err.stderr}`);
      return err;
    },
  );
  return { code: run.code, plan: JSON.parse(run.stdout) as Plan };
}

const entry = (plan: Plan, name: string): TenantPlan | undefined => plan.tenants.find((t) => t.name === name);

const applied = (t: Tenant | undefined): { reason?: string; message?: string } => {
  const condition = t?.status?.conditions?.find((c) => c.type === CONDITION.applied);
  return { reason: condition?.reason, message: condition?.message };
};

beforeAll(async () => {
  await createClass(custom, CLASS, {
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    expose: { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' },
    allowedDomains: ['apps.example.com', 'example.org'],
  });
  await networking.createNamespacedIngress({
    namespace: 'default',
    body: {
      metadata: { name: HAND_INGRESS },
      spec: { ingressClassName: 'nginx', rules: [{ host: `${HAND_HELD}.apps.example.com` }] },
    },
  });
  await createTable(table);
  await putRow(table, row(ORDINARY));
  await putRow(table, row(LABELS_OLDER));
  await putRow(table, exposedRow(HOST_OLDER, [SHOP]));
  operator = startLandlord('operator', componentEnv({ LANDLORD_OPERATOR_RESYNC_SECONDS: '10' }));
  sync = startSync(table, { LANDLORD_SYNC_RESYNC_SECONDS: '5' });
  for (const name of [ORDINARY, LABELS_OLDER, HOST_OLDER]) await ready(custom, name);
});

afterAll(async () => {
  await sync?.stop();
  await deleteSyncedTenants(table).catch(() => undefined);
  if (operator !== undefined) expect(await operator.stop()).toBe(0);
  await networking
    .deleteNamespacedIngress({ name: HAND_INGRESS, namespace: 'default' })
    .catch(() => undefined);
  await deleteClass(custom, CLASS);
});

describe('landlord plan and the operator', () => {
  let predicted: Plan;

  it('plans the refusals before the operator has judged the newer rows', async () => {
    await putRow(table, rowLabelledAs(LABELS_NEWER, LABELS_OLDER));
    await putRow(table, exposedRow(HOST_NEWER, [SHOP]));
    await putRow(table, exposedRow(HAND_HELD));
    ({ plan: predicted } = await planJson());
    for (const name of NEWER) {
      expect(entry(predicted, name), name).toMatchObject({
        kind: 'refused',
        refusal: { condition: CONDITION.applied, reason: EXPECTED[name] },
      });
    }
    // It is not refused, so sync and the operator may have made it already: whatever is left to
    // write, the plan names the withheld host.
    expect(entry(predicted, HOST_NEWER)).toMatchObject({
      hosts: { withheld: [WITHHELD], takenFrom: [], strays: [] },
    });
    expect(entry(predicted, HOST_NEWER)?.kind).not.toBe('refused');
  });

  it("names the reason and message the operator put in each Tenant's status, as already reported", async () => {
    for (const name of NEWER) await refusedWith(custom, name, EXPECTED[name]!);
    const { code, plan } = await planJson();
    for (const name of NEWER) {
      const status = applied(await readTenant(name));
      expect(entry(plan, name), name).toMatchObject({
        kind: 'refused',
        writes: false,
        refusal: { condition: CONDITION.applied, ...status },
      });
      // What it said before the operator acted is what the operator then said.
      expect(entry(predicted, name)?.refusal, name).toEqual(entry(plan, name)?.refusal);
    }
    expect(applied(await readTenant(LABELS_NEWER)).message).toContain(LABELS_OLDER);
    // The custom host's holder: the newer tenant runs, and plan and HostsReady name the holder alike.
    await ready(custom, HOST_NEWER);
    const hostsReady = (await readTenant(HOST_NEWER))?.status?.conditions?.find(
      (c) => c.type === CONDITION.hostsReady,
    );
    expect(hostsReady).toMatchObject({ status: 'False', reason: 'HostConflict' });
    expect(hostsReady?.message).toContain(`"${SHOP}" is withheld: Tenant ${HOST_OLDER} holds it`);
    expect(entry(plan, HOST_NEWER)).toMatchObject({
      kind: 'unchanged',
      writes: false,
      hosts: { withheld: [WITHHELD] },
    });
    expect(applied(await readTenant(HAND_HELD)).message).toContain(`Ingress default/${HAND_INGRESS}`);
    // The tenants that run: unchanged, as the operator left them; nothing for either to write.
    for (const name of [ORDINARY, LABELS_OLDER, HOST_OLDER]) {
      expect(entry(plan, name), name).toMatchObject({ kind: 'unchanged', writes: false });
    }
    expect(code).toBe(0);
  });
});
