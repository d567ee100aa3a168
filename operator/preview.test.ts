// previewChildren asks the reconcile's own questions (policy, ownership, drift, prune) of children
// given as data; the e2e plan test checks the same against the real API server.
import type { KubernetesObject, V1Ingress, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATION, HOSTS_ANNOTATION, type Tenant } from '../api/tenant.js';
import { CLASS_API_VERSION, CLASS_KIND, type TenantClass } from '../api/tenantclass.js';
import { testConfig, validTenant } from '../testing/policy.js';
import { syncEntry } from '../testing/stamp.js';
import { childKey, childRef, describeRef, type ChildKind, type ChildRef } from './child-ref.js';
import { indexesOf } from './cluster-indexes.js';
import { desiredChildren, withOwnership } from './desired.js';
import { service } from './exposure/objects.js';
import { exposureFacet } from './exposure/facet.js';
import { ROUTE_WATCHES } from './exposure/host-index.js';
import { clusterView } from './facets/view.js';
import { secretsFacet } from './secrets/facet.js';
import { lighten } from '../runtime/kube/informer.js';
import type { ClusterView } from './facets/contract.js';
import { desiredState } from './facets/engine.js';
import { classTemplates } from './namespaces/rules.js';
import { ObservedState } from './observed.js';
import { previewChildren, type ChildReader } from './preview.js';
import { atRevision, TEMPLATE_REVISION } from './workload/template-revision.js';
import { evaluateTenant } from './policy/index.js';
import type { SecretSources } from './secrets/sources.js';
import { fallbackClass, resolveClass } from './tenancy/resolve-class.js';
import type { WatchedCaches } from './watches.js';

function tenant(): Tenant {
  const t = validTenant();
  t.metadata.uid = 'uid-acme';
  return t;
}

/** The children exactly as a reconcile of `t` would have applied them. */
function appliedChildren(t: Tenant): KubernetesObject[] {
  const verdict = evaluateTenant(t, testConfig());
  if (!verdict.ok) throw new Error('the fixture must be valid');
  const owner = { tenant: t.metadata.name!, tenantClass: testConfig().tenantClass };
  return desiredChildren(t, verdict.children).map((d) =>
    structuredClone<KubernetesObject>(
      d.ref.kind === 'Deployment' ? atRevision(d, TEMPLATE_REVISION, owner).manifest : d.manifest,
    ),
  );
}

function reader(objects: KubernetesObject[], labelled: ChildRef[] = []): ChildReader {
  const refOf = (o: KubernetesObject): ChildRef =>
    childRef(o.kind as ChildKind, o.metadata!.namespace!, o.metadata!.name!);
  const byKey = new Map(objects.map((o) => [childKey(refOf(o)), o]));
  return {
    get: (ref) => Promise.resolve(byKey.get(childKey(ref))),
    labelledFor: () => [...objects.map(refOf), ...labelled],
  };
}

/** Under the built-in class unless `builtIn` is false (then a Tenant with no default class waits). */
const summary = async (t: Tenant, children: ChildReader, builtIn = true): Promise<unknown> => {
  const plan = await previewChildren(t, { ...testConfig(), useBuiltInClass: builtIn }, children);
  return plan.kind === 'converge' ? plan.changes.map((c) => `${c.action} ${describeRef(c.ref)}`) : plan;
};

/** A PerTenant class: each of its tenants gets a namespace named after it. */
const standard: TenantClass = {
  apiVersion: CLASS_API_VERSION,
  kind: CLASS_KIND,
  metadata: { name: 'standard' },
  spec: { namespace: { mode: 'PerTenant' } },
};

/** A PerTenant class that exposes its tenants at "<name>.apps.example.com". */
const web: TenantClass = {
  ...standard,
  metadata: { name: 'web' },
  spec: {
    ...standard.spec,
    expose: { port: 8080, host: '{name}.apps.example.com', ingressClassName: 'nginx' },
    allowedDomains: ['apps.example.com', 'example.org'],
  },
};

describe('previewChildren', () => {
  it("plans a Tenant under its own TenantClass: a PerTenant one's namespace and objects first", async () => {
    const t = tenant();
    t.spec!.class = 'standard';
    const children = { ...reader([]), classes: [standard] };
    expect(await summary(t, children)).toEqual([
      'created Namespace acme',
      'created ServiceAccount acme/landlord-tenant',
      'created NetworkPolicy acme/landlord-isolation',
      'created Deployment acme/web',
      'created ConfigMap acme/settings',
      'created ConfigMap acme/extra',
    ]);
    expect(await summary(t, reader([]))).toMatchObject({ kind: 'refused', reason: 'ClassNotFound' });
  });

  it("plans an exposed tenant's Service and route, and says where it will be reached", async () => {
    const t = tenant();
    t.spec!.class = 'web';
    const plan = await previewChildren(t, testConfig(), { ...reader([]), classes: [web] });
    expect(plan).toMatchObject({ kind: 'converge', url: 'http://acme.apps.example.com' });
    const changes = plan.kind === 'converge' ? plan.changes.map((c) => describeRef(c.ref)) : [];
    expect(changes).toContain('Service acme/landlord-app');
    expect(changes).toContain('Ingress acme/landlord-app');
  });

  it('replaces a Service whose class turns headless (its clusterIP cannot change in place), and leaves one that stays', async () => {
    const t = tenant();
    t.spec!.class = 'web';
    // The Service as a reconcile under `web` made it, with the address the cluster gave it.
    const made = withOwnership(service(web.spec!.expose!, 'acme', { headless: false }), t, 'Service');
    const live = structuredClone(made.manifest) as V1Service;
    live.spec!.clusterIP = '10.96.0.9';
    const headless: TenantClass = { ...web, spec: { ...web.spec, services: { headless: true } } };
    const change = async (tc: TenantClass) => {
      const plan = await previewChildren(t, testConfig(), { ...reader([live]), classes: [tc] });
      if (plan.kind !== 'converge') throw new Error(`not planned: ${JSON.stringify(plan)}`);
      return plan.changes.find((c) => c.ref.kind === 'Service')?.action;
    };
    expect(await change(headless)).toBe('replaced');
    expect(await change(web)).toBeUndefined();
  });

  it('creates every child of a new Tenant', async () => {
    const t = tenant();
    expect(await summary(t, reader([]))).toEqual(
      appliedChildren(t).map((c) => `created ${c.kind} ${c.metadata!.namespace}/${c.metadata!.name}`),
    );
  });

  it('changes nothing when the children match', async () => {
    const t = tenant();
    expect(await summary(t, reader(appliedChildren(t)))).toEqual([]);
  });

  it('updates a child edited by hand, and only that one', async () => {
    const t = tenant();
    const children = appliedChildren(t);
    (children[0] as { spec: { replicas: number } }).spec.replicas = 7;
    expect(await summary(t, reader(children))).toEqual([
      `updated ${describeRef(childRef('Deployment', children[0]!.metadata!.namespace!, children[0]!.metadata!.name!))}`,
    ]);
  });

  it('prunes a child this Tenant controls that the spec no longer names, and leaves one it does not control', async () => {
    const t = tenant();
    const children = appliedChildren(t);
    const configMap = children[1]!;
    const stranger = {
      ...structuredClone(configMap),
      metadata: { ...configMap.metadata, name: 'stranger', ownerReferences: [] },
    };
    // The first ConfigMap stays: the pod template mounts it.
    t.spec!.configMaps = t.spec!.configMaps!.slice(0, 1);
    expect(await summary(t, reader([...children, stranger]))).toEqual(
      children.slice(2).map((c) => `pruned ConfigMap ${c.metadata!.namespace}/${c.metadata!.name}`),
    );
  });

  it("holds the old namespace's prunes until the moved Deployment has rolled out, as a reconcile does", async () => {
    const t = tenant();
    const old = appliedChildren(t);
    t.spec!.class = 'standard';
    const moving = await previewChildren(t, testConfig(), { ...reader(old), classes: [standard] });
    expect(moving).toMatchObject({
      kind: 'converge',
      pruneHeld: { until: { kind: 'Deployment', namespace: 'acme', name: 'web' }, gap: 'not created yet' },
    });
    const moved = structuredClone(old[0]!) as KubernetesObject & { status?: object };
    moved.metadata = { ...moved.metadata, namespace: 'acme', generation: 1 };
    moved.status = { observedGeneration: 1, replicas: 2, updatedReplicas: 2, availableReplicas: 2 };
    const rolledOut = await previewChildren(t, testConfig(), {
      ...reader([...old, moved]),
      classes: [standard],
    });
    expect(rolledOut.kind === 'converge' && rolledOut.pruneHeld).toBe(undefined);
    expect(
      rolledOut.kind === 'converge' && rolledOut.changes.filter((c) => c.action === 'pruned').length,
    ).toBe(old.length);
  });

  it("is blocked by a child another owner holds, with the reconcile's Conflict message", async () => {
    const t = tenant();
    const children = appliedChildren(t);
    children[0]!.metadata!.ownerReferences = [];
    expect(await summary(t, reader(children))).toMatchObject({
      kind: 'blocked',
      reason: 'Conflict',
      message: expect.stringContaining('is not managed by landlord') as unknown,
    });
  });

  it('updates the Deployment of a suspended Tenant, and only that', async () => {
    const t = tenant();
    const children = appliedChildren(t);
    t.spec!.state = 'suspended';
    const deployment = children[0]!.metadata!;
    expect(await summary(t, reader(children))).toEqual([
      `updated Deployment ${deployment.namespace}/${deployment.name}`,
    ]);
  });

  it.each(['archived', 'purged'] as const)('prunes every child of a Tenant %s', async (state) => {
    const t = tenant();
    const children = appliedChildren(t);
    t.spec!.state = state;
    expect(await summary(t, reader(children))).toEqual(
      children.map((c) => `pruned ${c.kind} ${c.metadata!.namespace}/${c.metadata!.name}`),
    );
  });

  it('leaves the children of a paused Tenant alone, edited or not', async () => {
    const t = tenant();
    const children = appliedChildren(t);
    (children[0] as { spec: { replicas: number } }).spec.replicas = 7;
    t.metadata.annotations = { 'landlord.dev/paused': 'true' };
    t.spec!.state = 'archived';
    expect(await summary(t, reader(children))).toMatchObject({
      kind: 'paused',
      message: expect.stringContaining('landlord.dev/paused=true') as unknown,
    });
  });

  it('takes only "true" for a pause', async () => {
    const t = tenant();
    t.metadata.annotations = { 'landlord.dev/paused': 'false' };
    expect(await summary(t, reader(appliedChildren(t)))).toEqual([]);
  });

  it("reports the policy's refusal", async () => {
    const t = tenant();
    t.spec!.deployment = { kind: 'Pod' };
    expect(await summary(t, reader([]))).toMatchObject({
      kind: 'refused',
      reason: expect.any(String) as unknown,
    });
  });
});

describe('previewChildren, a class that names namespaces by "{id}"', () => {
  const pooled: TenantClass = {
    ...standard,
    metadata: { name: 'quick' },
    spec: { namespace: { mode: 'PerTenant', nameTemplate: 'quick-{id}' } },
  };
  const claimed = 'quick-k3x9m2';
  const held: KubernetesObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: claimed,
      ownerReferences: [
        {
          apiVersion: 'landlord.dev/v1alpha1',
          kind: 'Tenant',
          name: 'acme',
          uid: 'uid-acme',
          controller: true,
        },
      ],
    },
  };
  const namespaces = (plan: unknown): string[] =>
    [...new Set((plan as string[]).map((line) => line.split(' ')[2]!.split('/')[0]!))].sort();

  it('plans in the namespace the Tenant holds (a claimed pool member), as a reconcile places it', async () => {
    const t = tenant();
    t.spec!.class = 'quick';
    const ref = childRef('Namespace', '', claimed);
    const children: ChildReader = {
      get: (r) => Promise.resolve(childKey(r) === childKey(ref) ? held : undefined),
      labelledFor: () => [ref],
      classes: [pooled],
    };
    expect(namespaces(await summary(t, children))).toEqual([claimed]);
  });

  it('plans a Tenant that holds none in its cold namespace, and ignores one it does not control', async () => {
    const t = tenant();
    t.spec!.class = 'quick';
    const ref = childRef('Namespace', '', claimed);
    const foreign = { ...held, metadata: { ...held.metadata, ownerReferences: [] } };
    const children: ChildReader = {
      get: (r) => Promise.resolve(childKey(r) === childKey(ref) ? foreign : undefined),
      labelledFor: () => [ref],
      classes: [pooled],
    };
    const planned = namespaces(await summary(t, children));
    expect(planned).toHaveLength(1);
    expect(planned[0]).toMatch(/^quick-[a-z0-9]+$/);
    expect(planned[0]).not.toBe(claimed);
  });
});

describe('previewChildren: the TenantClass', () => {
  const small: TenantClass = {
    apiVersion: CLASS_API_VERSION,
    kind: CLASS_KIND,
    metadata: { name: 'small', generation: 1 },
    spec: { namespace: { mode: 'Shared' }, limits: { maxReplicas: 1 } },
  };

  it('refuses a Tenant whose class does not exist, as a reconcile would', async () => {
    const t = tenant();
    t.spec!.class = 'small';
    expect(await summary(t, reader([]))).toMatchObject({ kind: 'refused', reason: 'ClassNotFound' });
  });

  it('refuses a Tenant with no class to go by, NoDefaultClass, unless the built-in class is configured', async () => {
    const t = tenant();
    expect(await summary(t, reader([]), false)).toMatchObject({ kind: 'refused', reason: 'NoDefaultClass' });
    expect(await summary(t, reader([]), true)).toContain('created Deployment team-a/web');
  });

  it("refuses a Tenant whose table the class's allowedTables leaves out, and plans one whose table it lists", async () => {
    const t = tenant();
    t.spec!.class = 'small';
    const only = (tables: string[]): TenantClass => ({
      ...small,
      spec: { ...small.spec, allowedTables: tables },
    });
    t.metadata.annotations = { [ANNOTATION.table]: 'rows' };
    t.metadata.managedFields = [syncEntry()];
    expect(await summary(t, { ...reader([]), classes: [only(['platform'])] })).toMatchObject({
      kind: 'refused',
      reason: 'ClassNotAllowed',
    });
    t.spec!.deployment!.spec!.replicas = 1;
    expect(await summary(t, { ...reader([]), classes: [only(['rows'])] })).toContain(
      'created Deployment team-a/web',
    );
  });

  it("judges the Tenant by its class's limits", async () => {
    const t = tenant();
    t.spec!.class = 'small';
    const children = { ...reader([]), classes: [small] };
    expect(await summary(t, children)).toMatchObject({ kind: 'refused', reason: 'LimitExceeded' });
  });
});

describe("previewChildren, a class's secrets (names only)", () => {
  const withSecrets: TenantClass = {
    ...standard,
    metadata: { name: 'with-secrets' },
    spec: {
      namespace: { mode: 'PerTenant' },
      secrets: [
        { name: 'sendgrid', from: { namespace: 'platform-secrets', name: 'sendgrid' } },
        { name: 'db', from: { namespace: 'platform-secrets', name: '{name}-db' } },
      ],
    },
  };
  const sources = (names: string[]): SecretSources => ({
    secret: (namespace, name) =>
      namespace === 'platform-secrets' && names.includes(name)
        ? { type: 'Opaque', data: { k: 'dmFsdWU=' } }
        : undefined,
    externalSecrets: false,
  });
  const config = { ...testConfig(), secretSourceNamespaces: ['platform-secrets'] };

  it('creates the copies whose sources exist, and keeps (never prunes) one whose source is gone', async () => {
    const t = tenant();
    t.spec!.class = 'with-secrets';
    const kept = childRef('Secret', 'acme', 'db');
    const base = {
      ...reader([], [kept]),
      classes: [withSecrets],
      cluster: clusterView(new Map([[secretsFacet, sources(['sendgrid'])]])),
    };
    // The kept copy is this Tenant's: the reader has no object for it, so controlledBy would say no
    // anyway; what matters is that the plan never names it.
    const plan = await previewChildren(t, config, base);
    const lines =
      plan.kind === 'converge' ? plan.changes.map((c) => `${c.action} ${describeRef(c.ref)}`) : [];
    expect(lines).toContain('created Secret acme/sendgrid');
    expect(lines.filter((l) => l.includes('Secret acme/db'))).toEqual([]);
    expect(JSON.stringify(plan)).not.toContain('dmFsdWU=');
  });
});

describe('previewChildren and a reconcile, over one cluster', () => {
  const classes = [web];
  const config = { ...testConfig(), useBuiltInClass: true };

  /** A Tenant created at `at`: the earlier one keeps a host or labels both ask for. */
  const created = (name: string, at: string, tweak: (t: Tenant) => void = () => undefined): Tenant => {
    const t = tenant();
    t.metadata = { ...t.metadata, name, uid: `uid-${name}`, creationTimestamp: at as unknown as Date };
    tweak(t);
    return t;
  };
  const acme = (tweak?: (t: Tenant) => void): Tenant => created('acme', '2025-02-01T00:00:00Z', tweak);
  const underWeb = (hosts?: string[]) => (t: Tenant) => {
    t.spec!.class = 'web';
    if (hosts !== undefined) t.spec!.hosts = hosts;
  };
  /** Another Deployment of the shared namespace, whose pods carry acme's labels. */
  const sameLabels = (t: Tenant): void => {
    t.spec!.deployment!.metadata!.name = `${t.metadata.name}-web`;
  };
  /** An Ingress someone made by hand for acme's templated host: elsewhere, or in acme's own namespace. */
  const handMade = (namespace: string): V1Ingress => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'by-hand', namespace },
    spec: { rules: [{ host: 'acme.apps.example.com' }] },
  });

  interface Cluster {
    tenants: Tenant[];
    routes: V1Ingress[];
  }

  /** The reconcile's view: ObservedState fed as the watches feed it (routes as their cache keeps them). */
  function watchedView({ tenants, routes }: Cluster): ClusterView {
    const caches = {
      tenants: { list: () => tenants, get: (n: string) => tenants.find((t) => t.metadata.name === n) },
      classes: { list: () => classes },
      child: () => undefined,
      watched: () => undefined,
      apis: { gatewayApi: false, externalSecrets: false },
    } as unknown as WatchedCaches;
    const observed = new ObservedState(caches, [undefined], fallbackClass(config));
    for (const t of tenants) observed.tenantChanged(t);
    for (const route of routes) observed.watchedChanged(exposureFacet, 'Ingress', cachedRoute(route), false);
    return observed.view();
  }

  /** A route as its watch caches it (exposure/host-index.ts, ROUTE_WATCHES), as plan's listing keeps it too. */
  const cachedRoute = (route: V1Ingress): KubernetesObject => lighten(route, ROUTE_WATCHES[0]!.unread);

  /** The plan's view: the same indexes, filled from a listing. */
  const listedView = ({ tenants, routes }: Cluster): ClusterView =>
    indexesOf({
      tenants,
      classes,
      builtInClass: fallbackClass(config),
      apis: { gatewayApi: false, externalSecrets: false },
      watched: routes.map((route) => ({ facet: exposureFacet, kind: 'Ingress', object: cachedRoute(route) })),
    }).view();

  type Decision = { reason: string; message: string } | { withheld: string[] };

  /**
   * What a reconcile decides (reconciler.ts: the class, then desiredState): a refusal's reason and
   * message, or the hosts the exposure facet withholds (reason: holder).
   */
  function reconciled(t: Tenant, view: ClusterView): Decision {
    const resolved = resolveClass(t, classes, fallbackClass(config));
    if (!resolved.ok) return resolved.refusal;
    const policy = { ...config, tenantClass: resolved.policy, classTemplates: classTemplates(classes) };
    const wanted = desiredState(t, policy, view);
    if (!wanted.ok) return { reason: wanted.refusal.reason, message: wanted.refusal.message };
    const withheld = wanted.decisions.of(exposureFacet)?.withheld ?? [];
    return { withheld: withheld.map((w) => `${w.host} ${w.reason}: ${w.holder}`) };
  }

  async function previewed(t: Tenant, view: ClusterView): Promise<Decision | string> {
    const plan = await previewChildren(t, config, { ...reader([]), classes, cluster: view });
    if (plan.kind === 'refused') return { reason: plan.reason, message: plan.message };
    if (plan.kind !== 'converge') return plan.kind;
    return { withheld: (plan.hosts?.withheld ?? []).map((w) => `${w.host} ${w.reason}: ${w.holder}`) };
  }

  const summary = (d: Decision): string =>
    'reason' in d ? d.reason : d.withheld.length === 0 ? 'converge' : `withheld ${d.withheld.join('; ')}`;
  /** A Tenant as the cluster knows it once reconciled: its status names its namespace. */
  const placedAs = (namespace: string, t: Tenant): Tenant => ({ ...t, status: { ...t.status, namespace } });
  const placed = (t: Tenant): Tenant => placedAs('acme', t);
  const namespaceAnnouncing = (name: string, hosts: string): KubernetesObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, annotations: { [HOSTS_ANNOTATION]: hosts } },
  });

  const cases: [string, Tenant, Cluster, string][] = [
    [
      'pod labels an older Tenant of the shared namespace holds',
      acme(),
      { tenants: [created('alpha', '2025-01-01T00:00:00Z', sameLabels), acme()], routes: [] },
      'LabelConflict',
    ],
    [
      'a custom host an older Tenant holds',
      acme(underWeb(['shop.example.org'])),
      {
        tenants: [created('alpha', '2025-01-01T00:00:00Z', underWeb(['shop.example.org'])), acme()],
        routes: [],
      },
      'withheld shop.example.org HostConflict: Tenant alpha',
    ],
    [
      'a templated host a route made by hand outside tenant namespaces holds',
      acme(underWeb()),
      { tenants: [], routes: [handMade('elsewhere')] },
      'HostConflict',
    ],
    [
      "another tenant's templated host, before that tenant exists",
      acme(underWeb(['victim.apps.example.com'])),
      { tenants: [], routes: [] },
      'withheld victim.apps.example.com HostTemplated: tenant victim',
    ],
    [
      "nothing anyone else holds (a route by hand in the tenant's own namespace is its team's)",
      acme(underWeb(['shop.example.org'])),
      {
        tenants: [
          created('alpha', '2025-01-01T00:00:00Z', underWeb()),
          placed(acme(underWeb(['shop.example.org']))),
        ],
        routes: [handMade('acme')],
      },
      'converge',
    ],
    [
      "a host a route made by hand in another tenant's namespace serves (it holds nothing)",
      created('beta', '2025-03-01T00:00:00Z', underWeb(['acme.example.org'])),
      {
        tenants: [placed(acme(underWeb()))],
        routes: [{ ...handMade('acme'), spec: { rules: [{ host: 'acme.example.org' }] } }],
      },
      'converge',
    ],
  ];

  it.each(cases)('decide alike on %s', async (_, t, cluster, expected) => {
    const decision = reconciled(t, watchedView(cluster));
    expect(summary(decision)).toBe(expected);
    // One view given to both, and the one each fills its own way: the same decision, word for word.
    const listed = listedView(cluster);
    expect(reconciled(t, listed)).toEqual(decision);
    expect(await previewed(t, listed)).toEqual(decision);
  });

  it('names the holder as the reconcile does', async () => {
    const [, u, routes] = cases[2]!;
    expect(await previewed(u, listedView(routes))).toMatchObject({
      message: expect.stringContaining('Ingress elsewhere/by-hand (not made by landlord)') as unknown,
    });
  });

  it('shows a takeover: a host another Tenant announces now, which the older one takes back', async () => {
    const alpha = placedAs('alpha', created('alpha', '2025-01-01T00:00:00Z', underWeb(['shop.example.org'])));
    const beta = placedAs('beta', created('beta', '2025-03-01T00:00:00Z', underWeb(['shop.example.org'])));
    const view = listedView({ tenants: [alpha, beta], routes: [] });
    const namespaces: Record<string, KubernetesObject> = {
      beta: namespaceAnnouncing('beta', 'beta.apps.example.com,shop.example.org'),
    };
    const children = {
      ...reader([]),
      get: (ref: ChildRef) => Promise.resolve(ref.kind === 'Namespace' ? namespaces[ref.name] : undefined),
      classes,
      cluster: view,
    };
    const plan = await previewChildren(alpha, config, children);
    expect(plan.kind === 'converge' ? plan.hosts?.takenFrom : undefined).toEqual([
      { host: 'shop.example.org', tenant: 'beta' },
    ]);
    // beta's own namespace is read as absent here: what matters is what it would be given.
    const lost = await previewChildren(beta, config, { ...reader([]), classes, cluster: view });
    expect(lost.kind === 'converge' ? lost.hosts?.withheld : undefined).toEqual([
      { host: 'shop.example.org', reason: 'HostConflict', holder: 'Tenant alpha' },
    ]);
  });
});
