// Without the Tenant CRD the operator refuses to start and says how to fix it; with
// LANDLORD_INSTALL_CRD=true it installs the Tenant and TenantClass CRDs itself, and the API server
// then holds TenantClasses to their schema (enums, bounds, one subject per RoleBinding). This needs a cluster that has never had the
// CRD, so the file starts its own control plane beside the shared one.
import { ApiextensionsV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRD_NAME, GROUP, VERSION } from '../api/tenant.js';
import {
  CLASS_API_VERSION,
  CLASS_CRD_NAME,
  CLASS_KIND,
  CLASS_PLURAL,
  type TenantClass,
} from '../api/tenantclass.js';
import { Cluster } from '../harness/cluster.js';
import { loadKubeConfig } from '../harness/readiness.js';
import { componentEnv, startLandlord } from './support/landlord.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({ dynamodb: 'none', log: () => undefined });
});

afterAll(async () => {
  await cluster.stop();
});

describe('the Tenant CRD', () => {
  it('missing: the operator exits 2 with one clear line saying how to install it', async () => {
    const operator = startLandlord(
      'operator',
      componentEnv({ KUBECONFIG: cluster.adminKubeconfig, LANDLORD_INSTALL_CRD: 'false' }),
    );
    expect(await operator.exited).toBe(2);
    const errors = operator.logs.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual([
      `the CustomResourceDefinition ${CRD_NAME} is not installed: run \`kubectl apply -f crds/\` (or start with LANDLORD_INSTALL_CRD=true)`,
    ]);
  });

  it('LANDLORD_INSTALL_CRD=true: the operator installs it and becomes ready', async () => {
    const operator = startLandlord(
      'operator',
      componentEnv({ KUBECONFIG: cluster.adminKubeconfig, LANDLORD_INSTALL_CRD: 'true' }),
    );
    await operator.ready();
    const crds = loadKubeConfig(cluster.adminKubeconfig).makeApiClient(ApiextensionsV1Api);
    for (const name of [CRD_NAME, CLASS_CRD_NAME]) {
      const crd = await crds.readCustomResourceDefinition({ name });
      expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
    }
    expect(await operator.stop()).toBe(0);
  });
});

describe('the TenantClass schema, on the real API server', () => {
  const classes = { group: GROUP, version: VERSION, plural: CLASS_PLURAL };
  const create = (name: string, spec: Record<string, unknown>): Promise<TenantClass> =>
    loadKubeConfig(cluster.adminKubeconfig)
      .makeApiClient(CustomObjectsApi)
      .createClusterCustomObject({
        ...classes,
        body: { apiVersion: CLASS_API_VERSION, kind: CLASS_KIND, metadata: { name }, spec },
      }) as Promise<TenantClass>;
  const refusal = (name: string, spec: Record<string, unknown>): Promise<string> =>
    create(name, spec).then(
      () => 'accepted',
      (err: { code?: number; body?: unknown }) => `${err.code}: ${String(err.body)}`,
    );

  it("accepts the issue's example class, and fills mode and podSecurity in when left out", async () => {
    await create('standard', {
      namespace: { mode: 'PerTenant', nameTemplate: '{name}', labels: {}, annotations: {} },
      podSecurity: 'baseline',
      resourceQuota: { hard: { pods: '20' } },
      limitRange: { limits: [] },
      networkIsolation: 'Isolated',
      allowIngressFrom: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress' } },
      nodePool: { nodeSelector: { pool: 'tenants' }, tolerations: [{ key: 'tenants', operator: 'Exists' }] },
      serviceAccount: { automountToken: false },
      rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
      limits: { maxReplicas: 50, maxConfigMaps: 50, allowedPriorityClasses: [] },
    });
    const bare = await create('bare', {});
    expect(bare.spec).toEqual({ namespace: { mode: 'PerTenant' }, podSecurity: 'baseline' });
  });

  it.each([
    ['an unknown mode', { namespace: { mode: 'Private' } }, 'spec.namespace.mode'],
    ['an unknown Pod Security level', { podSecurity: 'lax' }, 'spec.podSecurity'],
    ['an unknown network isolation', { networkIsolation: 'Open' }, 'spec.networkIsolation'],
    ['a negative limit', { limits: { maxReplicas: -1 } }, 'spec.limits.maxReplicas'],
    ['a limit past its maximum', { limits: { maxConfigMaps: 1_000_000 } }, 'spec.limits.maxConfigMaps'],
    [
      'a RoleBinding with both a group and a user',
      { rbac: [{ group: 'g', user: 'u', clusterRole: 'edit' }] },
      'exactly one of group and user',
    ],
    ['a RoleBinding with no subject', { rbac: [{ clusterRole: 'view' }] }, 'exactly one of group and user'],
    ['a RoleBinding without a ClusterRole', { rbac: [{ group: 'g' }] }, 'spec.rbac[0].clusterRole'],
  ])('refuses %s', async (_case, spec, says) => {
    const answer = await refusal('bad', spec);
    expect(answer).toMatch(/^422: /);
    expect(answer).toContain(says);
  });
});
