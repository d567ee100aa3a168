// Where a pod may run: on the class's node pool and nowhere else. The pool's nodeSelector and
// tolerations are forced onto the pod template (class-fields.ts), and selectors only ever narrow
// scheduling; what could widen it is refused: a node named outright, another scheduler, a
// toleration the pool does not grant, and asking for control-plane nodes. A node named by a label
// only it carries (its hostname) or by its name field is named outright too, whatever the operator:
// In pins the pod to it, and NotIn over the other nodes' names pins it as surely. The admission
// policy landlord-tenant-pods holds every pod of a tenant namespace to the same rules, with the
// class's grants read from its namespace (namespaces/pod-grants.ts).
import type {
  V1NodeSelectorRequirement,
  V1NodeSelectorTerm,
  V1PodSpec,
  V1Toleration,
} from '@kubernetes/client-node';
import { KUBERNETES_TOLERATIONS } from '../namespaces/pod-grants.js';
import { fieldPath, indexPath, isUnset, quote } from './json.js';
import type { RuleContext } from './pod-rule.js';
import { firstOf, listOf, type Violation } from './pss-pod.js';

const CONTROL_PLANE_KEYS: readonly string[] = [
  'node-role.kubernetes.io/control-plane',
  'node-role.kubernetes.io/master',
];
/** Labels whose value names one node: the kubelet sets the hostname label on every node. */
const NODE_NAME_LABELS: readonly string[] = ['kubernetes.io/hostname'];
const DEFAULT_SCHEDULER = 'default-scheduler';
/** Operators that select nodes carrying the key; NotIn and DoesNotExist keep pods away from them. */
const SELECTING = new Set(['In', 'Exists']);
const NODE_AFFINITY = 'spec.affinity.nodeAffinity';

export function placementViolation(spec: V1PodSpec, context: RuleContext): Violation | undefined {
  return (
    pinningViolation(spec) ??
    nodeSelectorViolation(spec.nodeSelector, context) ??
    affinityViolation(spec) ??
    firstOf(listOf(spec.tolerations), (t, i) => tolerationViolation(t, i, context))
  );
}

function pinningViolation(spec: V1PodSpec): Violation | undefined {
  if (!isUnset(spec.nodeName) && spec.nodeName !== '') {
    return {
      path: 'spec.nodeName',
      problem: 'must not be set: it places the pod on a node past the scheduler and the node pool',
      fix: "remove it; the tenant's pods run on its class's node pool",
    };
  }
  const scheduler = spec.schedulerName;
  if (isUnset(scheduler) || scheduler === '' || scheduler === DEFAULT_SCHEDULER) return undefined;
  return {
    path: 'spec.schedulerName',
    problem: `the scheduler ${quote(scheduler)} is not allowed: only the default scheduler honours the node pool`,
    fix: 'remove it',
  };
}

function nodeSelectorViolation(
  selector: Record<string, string> | undefined,
  { tenantClass }: RuleContext,
): Violation | undefined {
  const pool = tenantClass.nodePool.nodeSelector;
  for (const key of Object.keys(selector ?? {}).sort()) {
    const path = fieldPath('spec.nodeSelector', key);
    if (CONTROL_PLANE_KEYS.includes(key)) return controlPlane(path);
    if (NODE_NAME_LABELS.includes(key)) return namedNode(path, 'its hostname label');
    const value = selector?.[key];
    if (key in pool && pool[key] !== value) {
      return {
        path,
        problem: `${quote(value ?? '')} contradicts the node pool, which sets ${quote(key)} to ${quote(pool[key] ?? '')}`,
        fix: "remove it; landlord sets the node pool's nodeSelector itself",
      };
    }
  }
  return undefined;
}

function controlPlane(path: string): Violation {
  return {
    path,
    problem: 'selecting control-plane nodes is not allowed',
    fix: "remove it; the tenant's pods run on its class's node pool",
  };
}

function namedNode(path: string, by: string): Violation {
  return {
    path,
    problem: `selecting nodes by ${by} is not allowed: it picks one node past the node pool`,
    fix: "remove it; the tenant's pods run on its class's node pool (topologySpreadConstraints spread them over nodes)",
  };
}

function affinityViolation(spec: V1PodSpec): Violation | undefined {
  const affinity = spec.affinity?.nodeAffinity;
  if (isUnset(affinity)) return undefined;
  const required = listOf(affinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms);
  const requiredPath = `${NODE_AFFINITY}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
  const preferredPath = `${NODE_AFFINITY}.preferredDuringSchedulingIgnoredDuringExecution`;
  return (
    firstOf(required, (term, i) => termViolation(term, indexPath(requiredPath, i))) ??
    firstOf(listOf(affinity.preferredDuringSchedulingIgnoredDuringExecution), (p, i) =>
      termViolation(p.preference, `${indexPath(preferredPath, i)}.preference`),
    )
  );
}

function termViolation(term: V1NodeSelectorTerm, path: string): Violation | undefined {
  return (
    firstOf(listOf(term.matchExpressions), (e, i) =>
      expressionViolation(e, indexPath(`${path}.matchExpressions`, i)),
    ) ?? firstOf(listOf(term.matchFields), (f, i) => fieldViolation(f, indexPath(`${path}.matchFields`, i)))
  );
}

function expressionViolation(requirement: V1NodeSelectorRequirement, path: string): Violation | undefined {
  if (CONTROL_PLANE_KEYS.includes(requirement.key) && SELECTING.has(requirement.operator))
    return controlPlane(path);
  if (NODE_NAME_LABELS.includes(requirement.key)) return namedNode(path, 'their hostname label');
  return undefined;
}

/** metadata.name is the only node field a term may match: naming a node is nodeName by another route. */
function fieldViolation(requirement: V1NodeSelectorRequirement, path: string): Violation | undefined {
  if (requirement.key !== 'metadata.name') return undefined;
  return namedNode(path, 'name');
}

function tolerationViolation(
  toleration: V1Toleration,
  index: number,
  context: RuleContext,
): Violation | undefined {
  const path = indexPath('spec.tolerations', index);
  if (isUnset(toleration.key) || toleration.key === '') {
    return {
      path,
      problem: 'a toleration without a key tolerates every taint, which is not allowed',
      fix: "remove it; landlord adds the node pool's tolerations itself",
    };
  }
  const granted = [...context.tenantClass.nodePool.tolerations, ...KUBERNETES_TOLERATIONS];
  if (granted.some((g) => covers(g, toleration))) return undefined;
  return {
    path,
    problem: `tolerating the taint ${quote(toleration.key)} is not allowed: the node pool grants no such toleration`,
    fix: "remove it; landlord adds the node pool's tolerations itself",
  };
}

/** The pool's toleration allows at least as much as the row's: same taint, any or the same effect. */
function covers(granted: V1Toleration, asked: V1Toleration): boolean {
  const operator = (t: V1Toleration): string => t.operator ?? 'Equal';
  return (
    granted.key === asked.key &&
    operator(granted) === operator(asked) &&
    (operator(granted) === 'Exists' || (granted.value ?? '') === (asked.value ?? '')) &&
    ((granted.effect ?? '') === '' || granted.effect === asked.effect) &&
    (isUnset(granted.tolerationSeconds) || (asked.tolerationSeconds ?? Infinity) <= granted.tolerationSeconds)
  );
}
