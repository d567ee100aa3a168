// A fault test's own Tenants: labelled so that the test can list, check and delete exactly its own
// (the operator reconciles every Tenant in the cluster, other files' leftovers included), with their
// children in a namespace of the test's own.
import type { Tenant } from '../../api/tenant.js';
import { GROUP, PLURAL, VERSION } from '../../api/tenant.js';
import type { Expectation } from './converged.js';
import { clients, uniqueName } from './env.js';
import { createTenant, deleteTenantsLabelled, setSpec, tenantManifest } from './tenants.js';

const { core, custom } = clients();

/** On Tenants only (never in a manifest): landlord forbids its own label keys on children. */
export const SUITE_LABEL = 'e2e-suite';

export interface Suite {
  id: string;
  namespace: string;
  selector: string;
}

export async function createSuite(prefix: string): Promise<Suite> {
  const id = uniqueName(prefix);
  await core.createNamespace({ body: { metadata: { name: id } } });
  return { id, namespace: id, selector: `${SUITE_LABEL}=${id}` };
}

export function expectation(suite: Suite, tenants: readonly string[]): Expectation {
  return { tenants, selector: suite.selector, namespaces: [suite.namespace] };
}

/** A Tenant with one Deployment and `configMaps` ConfigMaps in the suite's namespace. */
export function suiteTenant(suite: Suite, name: string, image = 'nginx:1.27', configMaps = 1): Tenant {
  const tenant = tenantManifest(name, suite.namespace, configMaps);
  tenant.metadata.labels = { [SUITE_LABEL]: suite.id };
  tenant.spec!.deployment!.spec!.template.spec!.containers[0]!.image = image;
  return tenant;
}

/** Runs `work` over `items`, `width` at a time. */
export async function inBatches<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += width) {
    await Promise.all(items.slice(start, start + width).map(work));
  }
}

export function createSuiteTenants(suite: Suite, names: readonly string[], width = 20): Promise<void> {
  return inBatches(names, width, (name) => createTenant(custom, suiteTenant(suite, name)));
}

/** Replaces the spec with one whose image differs: a new generation to roll out. */
export function setImage(suite: Suite, names: readonly string[], image: string, width = 20): Promise<void> {
  return inBatches(names, width, (name) => setSpec(custom, name, suiteTenant(suite, name, image).spec));
}

export function deleteSuiteTenants(names: readonly string[], width = 20): Promise<void> {
  return inBatches(names, width, (name) =>
    custom.deleteClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, name }),
  );
}

/** Deletes the suite's Tenants and namespace without waiting for the garbage collector. */
export async function removeSuite(suite: Suite): Promise<void> {
  await deleteTenantsLabelled(custom, suite.selector);
  await core.deleteNamespace({ name: suite.namespace });
}

/** A small seeded generator (mulberry32): a failing run can be repeated with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed from LANDLORD_E2E_SEED, or a fresh one; printed by the caller so a run can be repeated. */
export function seed(): number {
  const given = Number(process.env.LANDLORD_E2E_SEED);
  return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
}

export const SOAK = process.env.LANDLORD_SOAK === '1';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Names `prefix-000`…, sorted as created. */
export function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);
}
