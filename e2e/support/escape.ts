// What the escape tests (e2e/escape-*.test.ts) share: TenantClasses made and removed by name, a
// Tenant of a class, and a refusal checked where people see it (the condition and a Warning Event).
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { expect } from 'vitest';
import { CONDITION, GROUP, VERSION, type Tenant } from '../../api/tenant.js';
import {
  CLASS_API_VERSION,
  CLASS_KIND,
  CLASS_PLURAL,
  type TenantClass,
  type TenantClassSpec,
} from '../../api/tenantclass.js';
import type { ApiServerAccess, RequestCounts } from '../../harness/apiserver-requests.js';
import { envValue, kubeConfig } from './env.js';
import { eventsWritten } from './sync.js';
import { condition, tenantManifest, waitForCondition } from './tenants.js';

const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };

export async function createClass(
  custom: CustomObjectsApi,
  name: string,
  spec: TenantClassSpec,
): Promise<void> {
  const body: TenantClass = { apiVersion: CLASS_API_VERSION, kind: CLASS_KIND, metadata: { name }, spec };
  await custom.createClusterCustomObject({ ...classes, body });
}

/** Replaces one field of a class's spec, as an admin's `kubectl patch` would. */
export async function patchClass(
  custom: CustomObjectsApi,
  name: string,
  field: keyof TenantClassSpec,
  value: unknown,
): Promise<void> {
  await custom.patchClusterCustomObject({
    ...classes,
    name,
    body: [{ op: 'add', path: `/spec/${field}`, value }],
  });
}

export async function deleteClass(custom: CustomObjectsApi, name: string): Promise<void> {
  await custom.deleteClusterCustomObject({ ...classes, name }).catch(() => undefined);
}

/** A Tenant of the class, its children written for namespace "default" as the seed format has them. */
export function tenantOf(name: string, className: string, namespace = 'default'): Tenant {
  const tenant = tenantManifest(name, namespace, 1);
  tenant.spec = { ...tenant.spec, class: className };
  return tenant;
}

export const ready = (custom: CustomObjectsApi, name: string): Promise<Tenant> =>
  waitForCondition(custom, name, { type: CONDITION.ready, status: 'True' }, 120_000);

/** Refused with `reason`: on the Applied condition (message returned) and in a Warning Event. */
export async function refusedWith(custom: CustomObjectsApi, name: string, reason: string): Promise<string> {
  const tenant = await waitForCondition(
    custom,
    name,
    { type: CONDITION.applied, status: 'False', reason },
    90_000,
  );
  const events = await eventsWritten(name, reason);
  expect(events.map((e) => e.type)).toContain('Warning');
  return condition(tenant, CONDITION.applied)?.message ?? '';
}

/** The API server's own counters, read with the e2e kubeconfig's token. */
export function apiServerAccess(): ApiServerAccess {
  const token = kubeConfig().getCurrentUser()?.token;
  if (token === undefined) throw new Error('the e2e kubeconfig has no token');
  return { server: envValue('LANDLORD_E2E_API_SERVER'), caFile: envValue('LANDLORD_E2E_CA_FILE'), token };
}

/** Writes the API server counted between two readings, of these resources only ("VERB resource" → n). */
export function writesTo(
  before: RequestCounts,
  after: RequestCounts,
  resources: readonly string[],
): Record<string, number> {
  const writes = new Set(['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE', 'DELETECOLLECTION', 'CREATE', 'UPDATE']);
  const moved: Record<string, number> = {};
  for (const [key, value] of after.requests) {
    const [verb = '', resource = ''] = key.split(' ');
    const count = value - (before.requests.get(key) ?? 0);
    if (count > 0 && writes.has(verb) && resources.includes(resource)) moved[key] = count;
  }
  return moved;
}
