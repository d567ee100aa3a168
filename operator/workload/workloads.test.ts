// A tenant of several Deployments (spec.deployments): each judged by the policy as a row of one is,
// refusals naming the element; what only a list can break (count, names, size, shared pods, a
// Shared class) refused as a list; the Service's label on the one expose.deployment names; the
// status summary over all of them; and a row of one exactly as before.
import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { API_VERSION, LABEL, type Tenant } from '../../api/tenant.js';
import { BUILT_IN_CLASS_NAME } from '../../api/tenantclass.js';
import { asService } from '../../testing/deployments.js';
import { perTenant, testConfig, validConfigMaps, validDeployment } from '../../testing/policy.js';
import { exposureFacet } from '../exposure/facet.js';
import type { Decisions, FacetInput } from '../facets/contract.js';
import type { PolicyConfig } from '../policy/index.js';
import { workloadFacet } from './facet.js';
import { availableOfAll, degradedOfAll, rolloutGapOfAll, workloadsStatus, type Workload } from './summary.js';
import { WORKLOAD_MESSAGE } from './reasons.js';
import { NO_CLUSTER } from '../facets/view.js';

const service = (name: string, labels: Record<string, string> = { app: name }): V1Deployment =>
  asService(validDeployment(), name, labels);

const tenantOf = (deployments: V1Deployment[]): Tenant => ({
  apiVersion: API_VERSION,
  kind: 'Tenant',
  metadata: { name: 'acme', generation: 1 },
  spec: { deployments, configMaps: validConfigMaps() },
});

const perTenantConfig = (limits: Partial<PolicyConfig['tenantClass']['limits']> = {}): PolicyConfig => {
  const config = testConfig({ tenantClass: perTenant() });
  return {
    ...config,
    tenantClass: { ...config.tenantClass, limits: { ...config.tenantClass.limits, ...limits } },
  };
};

function input(tenant: Tenant, policy = perTenantConfig()): FacetInput {
  return { tenant, policy, state: 'active', namespace: 'acme', cluster: NO_CLUSTER };
}

const notExposed: Decisions = { of: () => undefined };
const exposedTo = (deployment?: string): Decisions => ({
  of: <D>(facet: unknown) =>
    (facet === exposureFacet
      ? {
          expose: { port: 8080, host: '{name}.a.example', deployment },
          host: 'acme.a.example',
          hosts: [],
          url: '',
        }
      : undefined) as D | undefined,
});

function made(facetInput: FacetInput, decisions = notExposed) {
  const result = workloadFacet.children(facetInput, {}, decisions);
  if (!result.ok) throw new Error(result.refusal.message);
  return result.children;
}

const refusalOf = (facetInput: FacetInput, decisions = notExposed) => {
  const result = workloadFacet.children(facetInput, {}, decisions);
  return result.ok ? undefined : result.refusal;
};

describe('the workload facet: several Deployments', () => {
  it('applies each Deployment in the spec order, the ConfigMaps, then a Service each, in the tenant namespace', () => {
    const children = made(input(tenantOf([service('web'), service('worker')])));
    expect(children.map((c) => `${c.ref.kind} ${c.ref.namespace}/${c.ref.name}`)).toEqual([
      'Deployment acme/web',
      'Deployment acme/worker',
      'ConfigMap acme/settings',
      'ConfigMap acme/extra',
      'Service acme/web',
      'Service acme/worker',
    ]);
    expect(children.every((c) => c.manifest.metadata?.labels?.[LABEL.tenant] === 'acme')).toBe(true);
  });

  it('scales every Deployment to 0 while suspended', () => {
    const children = made({ ...input(tenantOf([service('web'), service('worker')])), state: 'suspended' });
    const replicas = children
      .filter((c) => c.ref.kind === 'Deployment')
      .map((c) => (c.manifest as V1Deployment).spec?.replicas);
    expect(replicas).toEqual([0, 0]);
  });

  it.each<[string, string | undefined, string]>([
    ['the first by default', undefined, 'web'],
    ['the one expose.deployment names', 'worker', 'worker'],
  ])('labels the pods of %s for the Service, and only those', (_, named, expected) => {
    const children = made(input(tenantOf([service('web'), service('worker')])), exposedTo(named));
    const labelled = children
      .filter((c) => c.ref.kind === 'Deployment')
      .filter(
        (c) => (c.manifest as V1Deployment).spec?.template.metadata?.labels?.[LABEL.exposed] !== undefined,
      )
      .map((c) => c.ref.name);
    expect(labelled).toEqual([expected]);
  });

  it('refuses an expose.deployment that names none of them', () => {
    expect(refusalOf(input(tenantOf([service('web')])), exposedTo('api'))).toMatchObject({
      reason: 'ExposeNotAllowed',
      message: expect.stringContaining('expose.deployment names "api"') as unknown,
    });
  });

  it('judges each Deployment by the policy, naming the one refused', () => {
    const privileged = service('worker');
    privileged.spec!.template.spec!.containers[0]!.securityContext = { privileged: true };
    const refusal = refusalOf(input(tenantOf([service('web'), privileged])));
    expect(refusal?.reason).toBe('PodSecurityViolation');
    expect(refusal?.message).toContain('spec.deployments[1].spec.template.spec.containers[0]');
    expect(refusal?.message).not.toMatch(/spec\.deployment\./);
  });

  it('holds each Deployment to maxReplicas', () => {
    const big = service('worker');
    big.spec!.replicas = 500;
    expect(refusalOf(input(tenantOf([service('web'), big])))?.message).toContain(
      'spec.deployments[1].spec.replicas',
    );
  });

  it.each<[string, Tenant, PolicyConfig, string, string]>([
    [
      'more than maxDeployments',
      tenantOf([service('a'), service('b'), service('c')]),
      perTenantConfig({ maxDeployments: 2 }),
      'LimitExceeded',
      WORKLOAD_MESSAGE.tooMany(3, 2),
    ],
    [
      'two of one name',
      tenantOf([service('web'), service('worker'), service('web', { app: 'other' })]),
      perTenantConfig(),
      'DuplicateChild',
      WORKLOAD_MESSAGE.duplicate('spec.deployments[2]', 'web', 'spec.deployments[0]'),
    ],
    [
      'a selector that matches a sibling pods',
      tenantOf([service('web', { app: 'shop' }), service('worker', { app: 'shop' })]),
      perTenantConfig(),
      'LabelConflict',
      WORKLOAD_MESSAGE.overlap('spec.deployments[0]', 'spec.deployments[1] (worker)'),
    ],
    ['an empty list', tenantOf([]), perTenantConfig(), 'InvalidSpec', WORKLOAD_MESSAGE.empty],
    [
      'both fields set',
      { ...tenantOf([service('web')]), spec: { deployment: service('x'), deployments: [service('web')] } },
      perTenantConfig(),
      'InvalidSpec',
      WORKLOAD_MESSAGE.both,
    ],
    [
      'a Shared class',
      tenantOf([service('web'), service('worker')]),
      testConfig(),
      'LimitExceeded',
      WORKLOAD_MESSAGE.shared(BUILT_IN_CLASS_NAME, 2),
    ],
  ])('refuses %s', (...[, tenant, policy, reason, message]) => {
    expect(refusalOf(input(tenant, policy))).toEqual({ reason, message });
  });

  it('counts every Deployment in maxRowBytes', () => {
    const refusal = refusalOf(
      input(tenantOf([service('web'), service('worker')]), perTenantConfig({ maxRowBytes: 1500 })),
    );
    expect(refusal?.reason).toBe('LimitExceeded');
    expect(refusal?.message).toMatch(
      /^spec.deployments and spec.configMaps \(bytes of JSON\): \d+ is over .* maxRowBytes of 1500/,
    );
  });

  it('makes for a list of one what a row of one makes, and its Service', () => {
    const one: Tenant = {
      ...tenantOf([]),
      spec: { deployment: service('web'), configMaps: validConfigMaps() },
    };
    const listed = made(input(tenantOf([service('web')])));
    expect(listed.filter((c) => c.ref.kind !== 'Service')).toEqual(made(input(one)));
    expect(made(input(one)).map((c) => c.ref.kind)).not.toContain('Service');
  });

  it("gives each Service its Deployment's matchLabels and container ports", () => {
    const worker = service('worker');
    worker.spec!.template.spec!.containers[0]!.ports = [
      { containerPort: 9000 },
      { containerPort: 9001, protocol: 'UDP' },
    ];
    const services = made(input(tenantOf([service('web'), worker]))).filter((c) => c.ref.kind === 'Service');
    expect(services.map((c) => (c.manifest as V1Service).spec)).toEqual([
      {
        type: 'ClusterIP',
        selector: { app: 'web' },
        ports: [{ name: 'tcp-8080', port: 8080, targetPort: 8080, protocol: 'TCP' }],
      },
      {
        type: 'ClusterIP',
        selector: { app: 'worker' },
        ports: [
          { name: 'tcp-9000', port: 9000, targetPort: 9000, protocol: 'TCP' },
          { name: 'udp-9001', port: 9001, targetPort: 9001, protocol: 'UDP' },
        ],
      },
    ]);
  });

  it('makes each Service headless under a class that says so, and changes nothing else', () => {
    const tenant = tenantOf([service('web'), service('worker')]);
    const config = perTenantConfig();
    const headless = { ...config, tenantClass: { ...config.tenantClass, services: { headless: true } } };
    const specs = (policy: PolicyConfig) =>
      made(input(tenant, policy))
        .filter((c) => c.ref.kind === 'Service')
        .map((c) => (c.manifest as V1Service).spec);
    expect(specs(headless)).toEqual(specs(config).map((spec) => ({ ...spec, clusterIP: 'None' })));
    const others = (policy: PolicyConfig) =>
      made(input(tenant, policy)).filter((c) => c.ref.kind !== 'Service');
    expect(others(headless)).toEqual(others(config));
  });

  it.each<[string, (d: V1Deployment) => void]>([
    ['declares no port', (d) => delete d.spec!.template.spec!.containers[0]!.ports],
    [
      'selects by matchExpressions',
      (d) => (d.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['worker'] }] }),
    ],
    ['has a name no Service may take', (d) => (d.metadata!.name = 'worker.v2')],
    ['is named as the exposed Service', (d) => (d.metadata!.name = 'landlord-app')],
  ])('gives no Service to a Deployment that %s', (_, tweak) => {
    const worker = service('worker');
    tweak(worker);
    const services = made(input(tenantOf([service('web'), worker]))).filter((c) => c.ref.kind === 'Service');
    expect(services.map((c) => c.ref.name)).toEqual(['web']);
  });
});

describe('the status summary of several Deployments', () => {
  const at = (
    available: string,
    ready: number,
    replicas = 1,
    extra: Partial<V1Deployment['status']> = {},
  ): V1Deployment => ({
    metadata: { generation: 1 },
    spec: { replicas, selector: {}, template: {} },
    status: {
      observedGeneration: 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      conditions: [{ type: 'Available', status: available, message: `Available=${available}` }],
      ...extra,
    },
  });
  const both = (web?: V1Deployment, worker?: V1Deployment): Workload[] => [
    { name: 'acme/web', deployment: web },
    { name: 'acme/worker', deployment: worker },
  ];

  it('is Available only when every Deployment is, naming the first that is not', () => {
    expect(availableOfAll(both(at('True', 1), at('True', 2, 2)))).toMatchObject({ status: 'True' });
    expect(availableOfAll(both(at('True', 1), at('False', 0)))).toMatchObject({
      status: 'False',
      message: 'Deployment acme/worker: Available=False',
    });
    expect(availableOfAll(both(at('True', 1)))).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentNotFound',
    });
  });

  it('reports a rollout gap and a stuck rollout of any, named', () => {
    expect(rolloutGapOfAll(both(at('True', 1), at('True', 0, 2)))).toBe(
      'Deployment acme/worker: 0 of 2 updated replicas available',
    );
    const stuck = at('False', 0, 1, {
      conditions: [
        { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'late' },
      ],
    });
    expect(degradedOfAll(both(at('True', 1), stuck))).toMatchObject({
      status: 'True',
      message: 'Deployment acme/worker: late',
    });
    expect(degradedOfAll(both(at('True', 1), at('True', 1)))).toBeUndefined();
  });

  it('sums the replicas and lists each Deployment', () => {
    expect(workloadsStatus(both(at('True', 1), at('False', 1, 3)))).toEqual({
      replicas: 4,
      readyReplicas: 2,
      replicaSummary: '2/4',
      workloads: [
        { name: 'acme/web', replicas: 1, readyReplicas: 1, available: 'True' },
        { name: 'acme/worker', replicas: 3, readyReplicas: 1, available: 'False' },
      ],
    });
  });
});
