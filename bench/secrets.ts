// --secrets: PerTenant runs whose class copies two Secrets into every tenant namespace, a shared
// one and one of the tenant's own (issue 39: peak RSS with secrets against the same run without).
// The sources are made before landlord or the baseline starts (not timed), in a namespace the
// operator is installed to read; the baseline writes the same copies, made by the operator's own
// functions from the source data it knows.
import { randomBytes } from 'node:crypto';
import type { V1Secret } from '@kubernetes/client-node';
import { ANNOTATION, CONDITION, LABEL, type Tenant } from '../api/tenant.js';
import type { ClassSecret } from '../api/tenantclass.js';
import { CONTENT_TYPE, type KubeApi } from '../runtime/kube/api.js';
import type { Informer } from '../runtime/kube/informer.js';
import { listAll } from '../runtime/kube/list.js';
import { SOURCE_ANNOTATION } from '../operator/secrets/copy.js';
import type { SecretScope } from '../operator/secrets/wanted.js';
import type { SourceSecret } from '../operator/secrets/sources.js';
import { runPool } from './pool.js';

/** Where the sources are: the operator's LANDLORD_SECRET_SOURCE_NAMESPACES in a --secrets run. */
export const SECRET_SOURCE_NAMESPACE = 'platform-secrets';

const SHARED_SOURCE = 'shared';
const tenantSource = (tenant: string): string => `${tenant}-db`;

/** The class's `secrets` in a --secrets run: one source for every tenant, one per tenant. */
export const BENCH_SECRETS: readonly ClassSecret[] = [
  { name: 'shared', from: { namespace: SECRET_SOURCE_NAMESPACE, name: SHARED_SOURCE } },
  { name: 'db', from: { namespace: SECRET_SOURCE_NAMESPACE, name: tenantSource('{name}') } },
];

/** The operator's environment when the class copies Secrets (nothing otherwise). */
export const secretsEnv = (copying: boolean): Record<string, string> =>
  copying ? { LANDLORD_SECRET_SOURCE_NAMESPACES: SECRET_SOURCE_NAMESPACE } : {};

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const random = (): string => randomBytes(18).toString('base64url');

function source(name: string, values: Record<string, string>): V1Secret {
  const data = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, base64(v)]));
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: SECRET_SOURCE_NAMESPACE },
    type: 'Opaque',
    data,
  };
}

/** The source Secrets of these tenants: `shared`, then `<tenant>-db` each, a few small random values. */
export function sourceSecrets(tenants: readonly string[]): V1Secret[] {
  const shared = source(SHARED_SOURCE, {
    'smtp-host': 'smtp.example.com',
    'smtp-user': 'landlord-bench',
    'smtp-password': random(),
  });
  const perTenant = tenants.map((tenant) =>
    source(tenantSource(tenant), {
      host: `${tenant}.db.example.com`,
      user: tenant,
      password: random(),
    }),
  );
  return [shared, ...perTenant];
}

/**
 * What wantedSecrets needs to make the copies, from the sources the bench made (the baseline's
 * side). `uidOf`: the uid of the tenant a per-tenant source is for, as a platform binds it
 * (docs/secrets.md); the baseline knows its tenants' uids before it copies.
 */
export function knownSources(
  secrets: readonly V1Secret[],
  uidOf: (tenant: string) => string | undefined = () => undefined,
): SecretScope {
  const byName = new Map<string, SourceSecret>(
    secrets.map((s) => [s.metadata!.name!, { type: s.type ?? '', data: s.data ?? {} }]),
  );
  // Asked when the tenant's copies are made, by then its uid is known.
  const bound = (name: string, known: SourceSecret | undefined): SourceSecret | undefined => {
    const tenantUid = name.endsWith('-db') ? uidOf(name.slice(0, -'-db'.length)) : undefined;
    return known === undefined || tenantUid === undefined ? known : { ...known, tenantUid };
  };
  return {
    sourceNamespaces: [SECRET_SOURCE_NAMESPACE],
    sources: {
      secret: (namespace, name) =>
        namespace === SECRET_SOURCE_NAMESPACE ? bound(name, byName.get(name)) : undefined,
      externalSecrets: false,
    },
  };
}

/**
 * Creates the source namespace and these tenants' source Secrets, `concurrency` requests at a time
 * (not timed), and resolves to the Secrets made.
 */
export async function createSources(
  api: KubeApi,
  tenants: readonly string[],
  concurrency: number,
): Promise<V1Secret[]> {
  const secrets = sourceSecrets(tenants);
  await api.request({
    method: 'POST',
    path: '/api/v1/namespaces',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SECRET_SOURCE_NAMESPACE } },
  });
  await runPool(secrets.length, concurrency, async (index) => {
    await api.request({
      method: 'POST',
      path: `/api/v1/namespaces/${SECRET_SOURCE_NAMESPACE}/secrets`,
      body: secrets[index],
    });
  });
  return secrets;
}

const secretsReady = (t: Tenant): boolean =>
  t.status?.conditions?.some((c) => c.type === CONDITION.secretsReady && c.status === 'True') === true;

/** Each tenant's copies, as "name<-namespace/source", from their labels and annotations. */
async function copiesByTenant(api: KubeApi): Promise<{ count: number; byTenant: Map<string, Set<string>> }> {
  const copies = await listAll(api, {
    path: '/api/v1/secrets',
    apiVersion: 'v1',
    kind: 'Secret',
    labelSelector: LABEL.tenant,
    metadataOnly: true,
    pageSize: 500,
  });
  const byTenant = new Map<string, Set<string>>();
  for (const { metadata } of copies.items) {
    const tenant = metadata?.labels?.[LABEL.tenant] ?? '';
    const found = byTenant.get(tenant) ?? new Set<string>();
    found.add(`${metadata?.name}<-${metadata?.annotations?.[SOURCE_ANNOTATION]}`);
    byTenant.set(tenant, found);
  }
  return { count: copies.items.length, byTenant };
}

/**
 * After a --secrets convergence (not timed): every Tenant reports SecretsReady=True and every
 * tenant namespace holds both copies, each naming its source. Reads the copies' metadata only.
 * Throws on the first tenant that falls short; resolves to the copies counted.
 */
export async function checkCopies(api: KubeApi, tenants: readonly Tenant[]): Promise<number> {
  const notReady = tenants.find((t) => !secretsReady(t));
  if (notReady !== undefined) {
    const condition = notReady.status?.conditions?.find((c) => c.type === CONDITION.secretsReady);
    const said = condition === undefined ? 'absent' : `${condition.status}: ${condition.message}`;
    throw new Error(`tenant ${notReady.metadata.name}: SecretsReady ${said}`);
  }
  const { count, byTenant } = await copiesByTenant(api);
  for (const tenant of tenants) {
    const name = tenant.metadata.name!;
    const expected = [
      `shared<-${SECRET_SOURCE_NAMESPACE}/${SHARED_SOURCE}`,
      `db<-${SECRET_SOURCE_NAMESPACE}/${tenantSource(name)}`,
    ];
    const found = byTenant.get(name);
    const missing = expected.filter((e) => found?.has(e) !== true);
    if (missing.length > 0) throw new Error(`tenant ${name}: no Secret copy ${missing.join(', ')}`);
  }
  return count;
}

/**
 * Binds each tenant's own source to its Tenant once sync has made it, as a platform does
 * (landlord.dev/tenant-uid, docs/secrets.md), by one merge patch per Tenant. The operator copies a
 * per-tenant source only once it is bound, so a --secrets landlord run's convergence includes this
 * step: the copy follows the source's change.
 */
export function bindSourcesOnCreate(api: KubeApi, tenants: Informer<Tenant>): void {
  const bound = new Set<string>();
  tenants.on('add', (tenant) => {
    const name = tenant.metadata.name!;
    if (bound.has(name) || tenant.metadata.uid === undefined) return;
    bound.add(name);
    const annotations = { [ANNOTATION.tenantUid]: tenant.metadata.uid };
    void api
      .request({
        method: 'PATCH',
        path: `/api/v1/namespaces/${SECRET_SOURCE_NAMESPACE}/secrets/${tenantSource(name)}`,
        body: { metadata: { annotations } },
        contentType: CONTENT_TYPE.merge,
      })
      .catch((err: unknown) => {
        bound.delete(name);
        console.error(`bench: could not bind ${tenantSource(name)}: ${String(err)}`);
      });
  });
}
