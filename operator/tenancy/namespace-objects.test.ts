import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_VERSION, KIND, LABEL, type Tenant } from '../../api/tenant.js';
import { resolvedClass, type TenantClassSpec } from '../../api/tenantclass.js';
import { SPEC_HASH_ANNOTATION } from '../desired.js';
import { POD_GRANT_ANNOTATIONS } from '../namespaces/pod-grants.js';
import { roleBindingName, TENANCY_NAMES, tenancyObjects } from './namespace-objects.js';

const tenant: Tenant = {
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name: 'acme', uid: 'uid-acme', generation: 1 },
};

const STANDARD: TenantClassSpec = {
  namespace: { labels: { team: '{name}' }, annotations: { 'logs.example/index': 'tenant-{name}' } },
  podSecurity: 'restricted',
  resourceQuota: { hard: { pods: '10', 'requests.cpu': '2' } },
  limitRange: { limits: [{ type: 'Container', default: { cpu: '200m' } }] },
  allowIngressFrom: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress' } },
  rbac: [
    { group: '{name}-devs', clusterRole: 'edit' },
    { user: 'auditor', clusterRole: 'view' },
  ],
};

function objects(spec: TenantClassSpec = STANDARD): KubernetesObject[] {
  return tenancyObjects(tenant, resolvedClass('standard', 1, spec), 'acme').map((d) => d.manifest);
}

const byKind = (list: KubernetesObject[], kind: string): KubernetesObject[] =>
  list.filter((o) => o.kind === kind);

describe('tenancyObjects', () => {
  it('makes the namespace first, then the ServiceAccount, quota, limits, network policy and bindings', () => {
    expect(objects().map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'Namespace/acme',
      `ServiceAccount/${TENANCY_NAMES.serviceAccount}`,
      `ResourceQuota/${TENANCY_NAMES.quota}`,
      `LimitRange/${TENANCY_NAMES.limits}`,
      `NetworkPolicy/${TENANCY_NAMES.isolation}`,
      `RoleBinding/${roleBindingName(STANDARD.rbac![0]!, 'acme')}`,
      `RoleBinding/${roleBindingName(STANDARD.rbac![1]!, 'acme')}`,
    ]);
  });

  it('labels the namespace for Pod Security admission, after the class labels, which cannot undo them', () => {
    const spec = {
      ...STANDARD,
      namespace: { labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } },
    };
    const ns = objects(spec)[0]!;
    expect(ns.metadata?.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/enforce-version': 'latest',
      'pod-security.kubernetes.io/audit': 'restricted',
      'pod-security.kubernetes.io/warn': 'restricted',
      [LABEL.tenant]: 'acme',
    });
  });

  it('fills {name} in the class labels and annotations', () => {
    const ns = objects()[0]!;
    expect(ns.metadata?.labels?.team).toBe('acme');
    expect(ns.metadata?.annotations?.['logs.example/index']).toBe('tenant-acme');
  });

  it("announces what the class grants a pod, which the class's own annotations cannot set", () => {
    const forged = { [POD_GRANT_ANNOTATIONS.priorityClasses]: 'system-node-critical' };
    const spec = {
      ...STANDARD,
      namespace: { annotations: forged },
      nodePool: { nodeSelector: { pool: 'tenants' } },
    };
    expect(objects(spec)[0]!.metadata?.annotations).toMatchObject({
      [POD_GRANT_ANNOTATIONS.nodeSelector]: 'pool=tenants',
    });
    expect(objects(spec)[0]!.metadata?.annotations).not.toHaveProperty(POD_GRANT_ANNOTATIONS.priorityClasses);
  });

  it('makes the Tenant the controller of every object, the namespace included, so GC removes them', () => {
    for (const o of objects()) {
      expect(o.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ uid: 'uid-acme', controller: true }),
      ]);
      expect(o.metadata?.annotations?.[SPEC_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{32}$/);
      expect(o.metadata?.namespace).toBe(o.kind === 'Namespace' ? undefined : 'acme');
    }
  });

  it('sets the ServiceAccount token automount from the class', () => {
    const [sa] = byKind(objects(), 'ServiceAccount') as { automountServiceAccountToken?: boolean }[];
    expect(sa!.automountServiceAccountToken).toBe(false);
  });

  it('omits the quota, limits and network policy when the class asks for none', () => {
    const kinds = objects({ networkIsolation: 'None', rbac: [] }).map((o) => o.kind);
    expect(kinds).toEqual(['Namespace', 'ServiceAccount']);
    const emptied = objects({ resourceQuota: { hard: {} }, limitRange: { limits: [] } }).map((o) => o.kind);
    expect(emptied).toEqual(['Namespace', 'ServiceAccount', 'NetworkPolicy']);
  });

  it('admits traffic from its own namespace and the selected ones only, and fences egress too', () => {
    const [policy] = byKind(objects(), 'NetworkPolicy') as { spec?: Record<string, unknown> }[];
    expect(policy!.spec).toMatchObject({
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [{ podSelector: {} }] },
        { from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress' } } }] },
      ],
    });
    expect(policy!.spec?.egress).toHaveLength(2);
  });

  it('adds no namespace rule for an empty allowIngressFrom, which would select every namespace', () => {
    const [policy] = byKind(objects({ allowIngressFrom: {} }), 'NetworkPolicy') as {
      spec?: { ingress: unknown[] };
    }[];
    expect(policy!.spec?.ingress).toEqual([{ from: [{ podSelector: {} }] }]);
  });

  it('binds each subject, {name} filled, to its ClusterRole', () => {
    const bindings = byKind(objects(), 'RoleBinding') as { subjects?: unknown; roleRef?: unknown }[];
    expect(bindings.map((b) => [b.subjects, b.roleRef])).toEqual([
      [
        [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'acme-devs' }],
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
      ],
      [
        [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'auditor' }],
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      ],
    ]);
  });

  it('names a binding after its content: another role is another binding, the order does not matter', () => {
    const edit = roleBindingName({ group: '{name}-devs', clusterRole: 'edit' }, 'acme');
    expect(roleBindingName({ group: '{name}-devs', clusterRole: 'edit' }, 'acme')).toBe(edit);
    expect(roleBindingName({ group: '{name}-devs', clusterRole: 'view' }, 'acme')).not.toBe(edit);
    expect(roleBindingName({ user: '{name}-devs', clusterRole: 'edit' }, 'acme')).not.toBe(edit);
    expect(roleBindingName({ group: 'x', clusterRole: 'system:aggregate-to-edit' }, 'acme')).toMatch(
      /^landlord-system-aggregate-to-edit-[0-9a-f]{10}$/,
    );
  });

  it('gives the same objects and hashes for the same Tenant and class', () => {
    const hashes = () =>
      tenancyObjects(tenant, resolvedClass('standard', 1, STANDARD), 'acme').map((d) => d.hash);
    expect(hashes()).toEqual(hashes());
  });
});
