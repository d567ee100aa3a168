// The operator's placement and priority rules and the admission policy on pods
// (config/admission/policies.yaml, landlord-tenant-pods) agree, through the annotations the operator
// renders from the class (namespaces/pod-grants.ts): a row's template the operator accepts gives
// pods the policy admits, once the class's fields and the API server's default tolerations are on
// them; and a pod the policy admits is one the operator would accept, but for a key-less toleration
// the class's own pool grants. `admits` mirrors the policy's CEL rule for rule; the CEL itself is
// run on the real API server by e2e/escape-hand-made-pods.test.ts.
import type { V1Deployment, V1NodeSelectorTerm, V1PodSpec, V1Toleration } from '@kubernetes/client-node';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolvedClass, type ClassPolicy } from '../../api/tenantclass.js';
import {
  KUBERNETES_TOLERATIONS,
  POD_GRANT_ANNOTATIONS,
  podGrantAnnotations,
} from '../namespaces/pod-grants.js';
import { withClassFields } from './class-fields.js';
import type { RuleContext } from './pod-rule.js';
import { placementViolation } from './placement.js';
import { priorityViolation } from './priority.js';

const HOSTNAME = 'kubernetes.io/hostname';
const CONTROL_PLANE = ['node-role.kubernetes.io/control-plane', 'node-role.kubernetes.io/master'];
const KUBERNETES_KEYS = KUBERNETES_TOLERATIONS.map((t) => t.key);

// ── The policy's rules, as its CEL reads them ──

const listOf = (annotations: Record<string, string>, key: string): string[] =>
  (annotations[key] ?? '').split(',').filter((s) => s !== '');

function termsOf(pod: V1PodSpec): V1NodeSelectorTerm[] {
  const affinity = pod.affinity?.nodeAffinity;
  return [
    ...(affinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []),
    ...(affinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((p) => p.preference),
  ];
}

const termAdmitted = (t: V1NodeSelectorTerm): boolean =>
  (t.matchExpressions ?? []).every(
    (e) => e.key !== HOSTNAME && !(CONTROL_PLANE.includes(e.key) && ['In', 'Exists'].includes(e.operator)),
  ) && (t.matchFields ?? []).every((f) => f.key !== 'metadata.name');

/** Whether one granted toleration, as its five fields, covers the pod's. */
function grantCovers(g: string[], t: V1Toleration): boolean {
  const [key, operator, value, effect, seconds] = g;
  const sameTaint =
    key === (t.key ?? '') &&
    operator === (t.operator ?? 'Equal') &&
    (operator === 'Exists' || value === (t.value ?? ''));
  return g.length === 5 && sameTaint && (effect === '' || effect === t.effect) && lastsNoLonger(seconds!, t);
}

/** The pod asks for at most the grant's seconds, unless the grant names none. */
const lastsNoLonger = (seconds: string, t: V1Toleration): boolean =>
  seconds === '' || (t.tolerationSeconds !== undefined && t.tolerationSeconds <= Number(seconds));

const kubernetesOwn = (t: V1Toleration): boolean =>
  KUBERNETES_KEYS.includes(t.key) && t.operator === 'Exists' && t.effect === 'NoExecute';

function placementAdmitted(pod: V1PodSpec, poolSelector: string[]): boolean {
  const selector = pod.nodeSelector ?? {};
  return (
    (pod.nodeName ?? '') === '' &&
    ['', 'default-scheduler'].includes(pod.schedulerName ?? '') &&
    !Object.keys(selector).some((k) => k === HOSTNAME || CONTROL_PLANE.includes(k)) &&
    termsOf(pod).every(termAdmitted) &&
    poolSelector.every((p) => Object.entries(selector).some(([k, v]) => `${k}=${v}` === p))
  );
}

function admits(pod: V1PodSpec, annotations: Record<string, string>): boolean {
  const granted = listOf(annotations, POD_GRANT_ANNOTATIONS.tolerations).map((t) => t.split(':'));
  const priorityClasses = listOf(annotations, POD_GRANT_ANNOTATIONS.priorityClasses);
  const name = pod.priorityClassName ?? '';
  return (
    placementAdmitted(pod, listOf(annotations, POD_GRANT_ANNOTATIONS.nodeSelector)) &&
    (pod.tolerations ?? []).every((t) => kubernetesOwn(t) || granted.some((g) => grantCovers(g, t))) &&
    (name === '' || priorityClasses.includes(name))
  );
}

// ── The operator's side ──

function classWith(
  nodePool: ClassPolicy['nodePool'],
  allowedPriorityClasses: readonly string[],
): ClassPolicy {
  return resolvedClass('c', 1, {
    nodePool: structuredClone(nodePool),
    limits: { allowedPriorityClasses: [...allowedPriorityClasses] },
  });
}

function operatorAccepts(spec: V1PodSpec, tenantClass: ClassPolicy): boolean {
  const context: RuleContext = { tenantClass, ownConfigMaps: new Set() };
  return placementViolation(spec, context) === undefined && priorityViolation(spec, context) === undefined;
}

/** Whether a toleration tolerates a taint, as the API server's DefaultTolerationSeconds asks. */
const tolerates = (t: V1Toleration, taint: string): boolean =>
  ['', 'NoExecute'].includes(t.effect ?? '') &&
  (((t.key ?? '') === '' && t.operator === 'Exists') || t.key === taint);

/** A pod the ReplicaSet controller makes from the row's template, as the policy sees it. */
function podOf(spec: V1PodSpec, tenantClass: ClassPolicy): V1PodSpec {
  const deployment: V1Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { selector: {}, template: { spec } },
  };
  const pod = structuredClone(withClassFields(deployment, tenantClass).spec!.template.spec!);
  for (const taint of KUBERNETES_TOLERATIONS) {
    if ((pod.tolerations ?? []).some((t) => tolerates(t, taint.key!))) continue;
    pod.tolerations = [...(pod.tolerations ?? []), { ...taint, tolerationSeconds: 300 }];
  }
  return pod;
}

// ── What fast-check makes: small alphabets, so grants and asks meet often ──

const some = <T>(...values: T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
const toleration: fc.Arbitrary<V1Toleration> = fc.record(
  {
    key: some('pool', 'gpu', '', ...KUBERNETES_KEYS, 'node-role.kubernetes.io/control-plane'),
    operator: some('Equal', 'Exists'),
    value: some('a', 'b'),
    effect: some('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
    tolerationSeconds: some(0, 60, 300),
  },
  { requiredKeys: [] },
);
const nodePool = fc.record({
  nodeSelector: fc.dictionary(some('pool', 'zone'), some('a', 'b')),
  tolerations: fc.array(toleration, { maxLength: 3 }),
});
const priorityClasses = fc.subarray(['low', 'high']);
const term: fc.Arbitrary<V1NodeSelectorTerm> = fc.record(
  {
    matchExpressions: fc.array(
      fc.record({
        key: some(HOSTNAME, 'zone', ...CONTROL_PLANE),
        operator: some('In', 'NotIn', 'Exists', 'DoesNotExist'),
      }),
      { maxLength: 2 },
    ),
    matchFields: fc.array(
      fc.record({ key: some('metadata.name', 'metadata.uid'), operator: some('In', 'NotIn') }),
      { maxLength: 1 },
    ),
  },
  { requiredKeys: [] },
);
/** Mostly absent: each attack is rare, so most pods meet every other rule. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

function affinityOf(
  required?: V1NodeSelectorTerm[],
  preferred?: V1NodeSelectorTerm[],
): V1PodSpec['affinity'] {
  if (required === undefined && preferred === undefined) return undefined;
  return {
    nodeAffinity: {
      ...(required && { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: required } }),
      ...(preferred && {
        preferredDuringSchedulingIgnoredDuringExecution: preferred.map((preference) => ({
          weight: 1,
          preference,
        })),
      }),
    },
  };
}

/** A pod spec near what the class grants: its pool's selector and tolerations, its PriorityClasses. */
function podSpecFor(pool: ClassPolicy['nodePool'], allowed: readonly string[]): fc.Arbitrary<V1PodSpec> {
  return fc
    .record({
      nodeName: rarely(some('kwok-node-0')),
      schedulerName: rarely(some('default-scheduler', 'other')),
      carriesPool: fc.boolean(),
      extraSelector: rarely(fc.dictionary(some('pool', 'zone', HOSTNAME, ...CONTROL_PLANE), some('a', 'b'))),
      granted: fc.subarray([...pool.tolerations]),
      // A granted toleration asked for longer, or for every effect: past what the pool grants.
      loosen: rarely(some<'tolerationSeconds' | 'effect'>('tolerationSeconds', 'effect')),
      own: rarely(fc.array(toleration, { maxLength: 2 })),
      priorityClassName: rarely(some(...allowed, 'system-node-critical', '')),
      required: rarely(fc.array(term, { maxLength: 2 })),
      preferred: rarely(fc.array(term, { maxLength: 2 })),
    })
    .map((p) => {
      const spec: V1PodSpec = { containers: [{ name: 'app', image: 'app:1' }] };
      if (p.nodeName !== undefined) spec.nodeName = p.nodeName;
      if (p.schedulerName !== undefined) spec.schedulerName = p.schedulerName;
      const selector = { ...(p.carriesPool ? pool.nodeSelector : {}), ...p.extraSelector };
      if (Object.keys(selector).length > 0) spec.nodeSelector = selector;
      const granted = p.granted.map((t) => ({ ...t }));
      if (p.loosen !== undefined) granted.forEach((t) => delete t[p.loosen!]);
      const tolerations = [...granted, ...(p.own ?? [])];
      if (tolerations.length > 0) spec.tolerations = tolerations;
      if (p.priorityClassName !== undefined) spec.priorityClassName = p.priorityClassName;
      const affinity = affinityOf(p.required, p.preferred);
      if (affinity !== undefined) spec.affinity = affinity;
      return spec;
    });
}

/** A class's grants and a pod spec near them. */
const grantsAndPod = fc
  .record({ pool: nodePool, allowed: priorityClasses })
  .chain(({ pool, allowed }) =>
    podSpecFor(pool, allowed).map((spec) => ({ tenantClass: classWith(pool, allowed), spec })),
  );

describe('the operator and the admission policy on pods agree', () => {
  it("admits every pod of a row's template the operator accepts", () => {
    fc.assert(
      fc.property(grantsAndPod, ({ tenantClass, spec }) => {
        fc.pre(operatorAccepts(spec, tenantClass));
        expect(admits(podOf(spec, tenantClass), podGrantAnnotations(tenantClass))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('admits a hand-made pod only where the operator would accept it, but a key-less toleration the pool grants', () => {
    fc.assert(
      fc.property(grantsAndPod, ({ tenantClass, spec: pod }) => {
        fc.pre(admits(pod, podGrantAnnotations(tenantClass)));
        const keyless = (pod.tolerations ?? []).some((t) => (t.key ?? '') === '');
        if (!keyless) expect(operatorAccepts(pod, tenantClass)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses each attack of a hand-made pod under a class that grants a pool and a PriorityClass', () => {
    const tenantClass = classWith(
      {
        nodeSelector: { pool: 'tenants' },
        tolerations: [{ key: 'pool', operator: 'Equal', value: 'tenants', effect: 'NoSchedule' }],
      },
      ['low'],
    );
    const annotations = podGrantAnnotations(tenantClass);
    const honest: V1PodSpec = {
      containers: [{ name: 'app', image: 'app:1' }],
      nodeSelector: { pool: 'tenants' },
      tolerations: [{ key: 'pool', operator: 'Equal', value: 'tenants', effect: 'NoSchedule' }],
      priorityClassName: 'low',
    };
    expect(admits(honest, annotations)).toBe(true);
    // What the API server gives every pod passes both, for as long as a pod asks.
    const lingering = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' };
    const patient = {
      ...honest,
      tolerations: [...honest.tolerations!, { ...lingering, tolerationSeconds: 3600 }],
    };
    expect(admits(patient, annotations)).toBe(true);
    expect(operatorAccepts(patient, tenantClass)).toBe(true);
    const attacks: Partial<V1PodSpec>[] = [
      { nodeName: 'kwok-node-0' },
      { nodeSelector: { pool: 'tenants', [HOSTNAME]: 'kwok-node-0' } },
      { tolerations: [{ operator: 'Exists' }] },
      { priorityClassName: 'system-node-critical' },
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: ['n'] }] }],
            },
          },
        },
      },
    ];
    for (const attack of attacks) {
      expect(admits({ ...honest, ...attack }, annotations)).toBe(false);
      expect(operatorAccepts({ ...honest, ...attack }, tenantClass)).toBe(false);
    }
    // The operator sets the pool's nodeSelector on the row's template; a hand-made pod must carry it.
    expect(admits({ ...honest, nodeSelector: {} }, annotations)).toBe(false);
  });
});
