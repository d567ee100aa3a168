// Issue 37, class 2: namespace squatting. A PerTenant tenant's namespace is made from its row's
// name, so a row could take a namespace the platform relies on or will make, or one another class
// hands out. Two classes here: the shipped one (tenant-{name}, installed by another name so it is
// not the cluster's default) and a "legacy" one that keeps {name} and trusts the platform's own
// namespace `<id>-edge`. Attacks, each refused with its own reason before any namespace is made,
// the victims' NetworkPolicies unchanged: a row named after the namespace the shipped
// allowIngressFrom selects (ingress-nginx: reserved under {name}, harmless under tenant-{name});
// rows on reserved globs (kube-…, …-system); a row named after the namespace the legacy class
// trusts; rows on names the shipped template makes for other tenants (one running, one not yet);
// and variants of our own: a label the class fills in with {name} that its allowEgressTo trusts,
// and the class edited to trust a running tenant's namespace (refused; its policy stays).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NetworkingV1Api, type V1NetworkPolicy } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TenantClass, TenantClassSpec } from '../api/tenantclass.js';
import { repoRoot } from '../harness/paths.js';
import { matches } from '../util/label-selector.js';
import { gone } from './support/deploy.js';
import { clients, uniqueName } from './support/env.js';
import { createClass, deleteClass, patchClass, ready, refusedWith, tenantOf } from './support/escape.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { createTenant, deleteTenant, readTenant, setSpec } from './support/tenants.js';

const { core, custom, kc } = clients();
const networking = kc.makeApiClient(NetworkingV1Api);
const id = uniqueName('squat');
const [shipped, legacy, labelled] = [`${id}-std`, `${id}-legacy`, `${id}-lbl`];
const EDGE = `${id}-edge`;
const [victim, peer] = [`${id}-v`, `${id}-p`];
const attackers = [
  'ingress-nginx',
  `kube-${id}`,
  `${id}-system`,
  EDGE,
  `tenant-${victim}`,
  `tenant-${id}-later`,
  `${id}-audit`,
];
let operator: LandlordProcess;
let shippedSpec: TenantClassSpec;

const policyOf = (namespace: string): Promise<V1NetworkPolicy> =>
  networking.readNamespacedNetworkPolicy({ name: 'landlord-isolation', namespace });

/** The victims' NetworkPolicies as they are now: a refused row must leave them exactly so. */
async function victimPolicies(): Promise<(string | undefined)[]> {
  const policies = await Promise.all([policyOf(`tenant-${victim}`), policyOf(peer)]);
  return policies.map((p) => p.metadata?.resourceVersion);
}

/** Refused with `reason`, and no namespace made for it. */
async function refusedBeforeAnyNamespace(tenant: string, namespace: string, reason: string): Promise<string> {
  const message = await refusedWith(custom, tenant, reason);
  expect(await gone(core.readNamespace({ name: namespace }))).toBe(true);
  return message;
}

beforeAll(async () => {
  const file = readFileSync(join(repoRoot, 'config', 'classes', 'standard.yaml'), 'utf8');
  shippedSpec = (load(file) as TenantClass).spec ?? {};
  await createClass(custom, shipped, shippedSpec);
  await createClass(custom, legacy, {
    ...shippedSpec,
    namespace: { mode: 'PerTenant', nameTemplate: '{name}' },
    allowIngressFrom: { matchLabels: { 'kubernetes.io/metadata.name': EDGE } },
  });
  operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  await operator.ready();
  await createTenant(custom, tenantOf(victim, shipped));
  await createTenant(custom, tenantOf(peer, legacy));
  await Promise.all([victim, peer].map((name) => ready(custom, name)));
});

afterAll(async () => {
  expect(await operator.stop()).toBe(0);
  const tenants = [victim, peer, ...attackers];
  await Promise.all(tenants.map((name) => deleteTenant(custom, name).catch(() => undefined)));
  await Promise.all([shipped, legacy, labelled].map((name) => deleteClass(custom, name)));
});

describe('a row named after a namespace the platform relies on', () => {
  it('ingress-nginx, which the shipped allowIngressFrom selects: reserved under {name}, harmless under the shipped template', async () => {
    const before = await victimPolicies();
    await createTenant(custom, tenantOf('ingress-nginx', legacy));
    const message = await refusedBeforeAnyNamespace('ingress-nginx', 'ingress-nginx', 'NamespaceReserved');
    expect(message).toContain('the reserved name "ingress-*"');
    expect(await victimPolicies()).toEqual(before);

    const spec = (await readTenant(custom, 'ingress-nginx')).spec!;
    await setSpec(custom, 'ingress-nginx', { ...spec, class: shipped });
    const moved = await ready(custom, 'ingress-nginx');
    expect(moved.status?.namespace).toBe('tenant-ingress-nginx');
    const labels = (await core.readNamespace({ name: 'tenant-ingress-nginx' })).metadata?.labels ?? {};
    const admitted = (await policyOf(`tenant-${victim}`)).spec?.ingress?.flatMap((rule) => rule._from ?? []);
    const selectors = (admitted ?? []).flatMap((peerOf) => peerOf.namespaceSelector ?? []);
    expect(selectors).toEqual([shippedSpec.allowIngressFrom]);
    expect(selectors.some((selector) => matches(selector, labels))).toBe(false);
    expect(await victimPolicies()).toEqual(before);
  });

  it('the namespace the class itself trusts (allowIngressFrom): NamespaceTrusted', async () => {
    const before = await victimPolicies();
    await createTenant(custom, tenantOf(EDGE, legacy));
    const message = await refusedBeforeAnyNamespace(EDGE, EDGE, 'NamespaceTrusted');
    expect(message).toContain("is selected by the class's allowIngressFrom");
    expect(await victimPolicies()).toEqual(before);
    await ready(custom, peer);
  });
});

describe('a row on a reserved glob', () => {
  it.each([
    ['kube-', '"kube-*"'],
    ['-system', '"*-system"'],
  ])('a name with %s: NamespaceReserved', async (part, glob) => {
    const name = part.startsWith('-') ? `${id}${part}` : `${part}${id}`;
    const before = await victimPolicies();
    await createTenant(custom, tenantOf(name, legacy));
    const message = await refusedBeforeAnyNamespace(name, name, 'NamespaceReserved');
    expect(message).toContain(`the reserved name ${glob}`);
    expect(await victimPolicies()).toEqual(before);
  });
});

describe('two classes whose templates can make one name', () => {
  it("a {name} row on the running victim's namespace: NamespaceOverlap, the victim keeps it", async () => {
    const attacker = `tenant-${victim}`;
    const before = await victimPolicies();
    await createTenant(custom, tenantOf(attacker, legacy));
    const message = await refusedWith(custom, attacker, 'NamespaceOverlap');
    expect(message).toContain(
      `class ${shipped}'s namespace template "tenant-{name}" makes for tenant ${victim}`,
    );
    expect(await victimPolicies()).toEqual(before);
    const owners = (await core.readNamespace({ name: attacker })).metadata?.ownerReferences ?? [];
    expect(owners.map((o) => o.name)).toEqual([victim]);
    await ready(custom, victim);
  });

  it('a name no tenant has yet: reported before any tenant of the shipped class uses it', async () => {
    const attacker = `tenant-${id}-later`;
    await createTenant(custom, tenantOf(attacker, legacy));
    const message = await refusedBeforeAnyNamespace(attacker, attacker, 'NamespaceOverlap');
    expect(message).toContain(`makes for tenant ${id}-later`);
  });
});

describe('variants of our own', () => {
  it('a class label filled in with {name} that the class allowEgressTo trusts: NamespaceTrusted', async () => {
    const attacker = `${id}-audit`;
    await createClass(custom, labelled, {
      ...shippedSpec,
      namespace: { mode: 'PerTenant', nameTemplate: '{name}', labels: { team: '{name}' } },
      allowEgressTo: [{ namespaceSelector: { matchLabels: { team: attacker } } }],
    });
    const before = await victimPolicies();
    await createTenant(custom, tenantOf(attacker, labelled));
    const message = await refusedBeforeAnyNamespace(attacker, attacker, 'NamespaceTrusted');
    expect(message).toContain('allowEgressTo[0].namespaceSelector');
    expect(await victimPolicies()).toEqual(before);
  });

  it("the class edited to trust a running tenant's namespace: refused, and its last policy stays", async () => {
    const before = await policyOf(peer);
    await patchClass(custom, legacy, 'allowIngressFrom', {
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: [EDGE, peer] }],
    });
    const message = await refusedWith(custom, peer, 'NamespaceTrusted');
    expect(message).toContain(`namespace "${peer}"`);
    const after = await policyOf(peer);
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    await ready(custom, victim);
  });
});
