// What a class grants a pod beyond the rules every tenant shares: its node pool (the nodeSelector
// every pod carries, the tolerations it may have) and the PriorityClasses it may name. The operator
// checks the row's pod template against them (policy/placement.ts, policy/priority.ts); the
// admission policy landlord-tenant-pods (config/admission/policies.yaml) holds every pod of a
// tenant namespace to the same grants, read from annotations the operator writes on the namespace
// (tenancy/namespace-objects.ts), which a team with `edit` cannot change. Rendered here from the
// class, the one source of both. Pure.
import type { V1Toleration } from '@kubernetes/client-node';
import type { ClassPolicy } from '../../api/tenantclass.js';

/** The namespace annotations the admission policy reads; absent: the class grants nothing of it. */
export const POD_GRANT_ANNOTATIONS = {
  /** The node pool's nodeSelector: `key=value` pairs, sorted, comma-separated. */
  nodeSelector: 'landlord.dev/node-selector',
  /**
   * The node pool's tolerations, sorted, comma-separated, each `key:operator:value:effect:seconds`
   * (operator `Equal` when unset, the others empty).
   */
  tolerations: 'landlord.dev/tolerations',
  /** The class's allowedPriorityClasses, sorted, comma-separated. */
  priorityClasses: 'landlord.dev/priority-classes',
} as const;

/**
 * What the API server gives every pod that does not tolerate these taints itself (its
 * DefaultTolerationSeconds admission plugin, 300 s): any pod may carry them, with any seconds. They
 * only say how long a pod stays on a node that stopped answering, and pick no node.
 */
export const KUBERNETES_TOLERATIONS: readonly V1Toleration[] = Object.freeze([
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
]);

/** What separates entries and fields in the annotations: never in a label key or value a pod may carry. */
const SEPARATORS = /[,:=]/;

/**
 * The annotations that announce the class's grants on its tenants' namespaces; an empty grant is
 * left out. A value no pod could carry (one holding a separator) is left out too: the API server
 * refuses such a pod whatever the policy says, and leaving it out can only grant less.
 */
export function podGrantAnnotations(
  tenantClass: Pick<ClassPolicy, 'nodePool' | 'limits'>,
): Record<string, string> {
  const { nodeSelector, tolerations } = tenantClass.nodePool;
  const entries: [string, string[]][] = [
    [
      POD_GRANT_ANNOTATIONS.nodeSelector,
      Object.entries(nodeSelector)
        .filter(([key, value]) => !SEPARATORS.test(key) && !SEPARATORS.test(value))
        .map(([key, value]) => `${key}=${value}`),
    ],
    [POD_GRANT_ANNOTATIONS.tolerations, tolerations.flatMap(tolerationText)],
    [
      POD_GRANT_ANNOTATIONS.priorityClasses,
      tenantClass.limits.allowedPriorityClasses.filter((name) => !SEPARATORS.test(name)),
    ],
  ];
  const annotations: Record<string, string> = {};
  for (const [key, values] of entries)
    if (values.length > 0) annotations[key] = [...new Set(values)].sort().join(',');
  return annotations;
}

/** One toleration as the policy splits it, or none when a field would break the format. */
function tolerationText(toleration: V1Toleration): string[] {
  const fields = [
    toleration.key ?? '',
    toleration.operator ?? 'Equal',
    toleration.value ?? '',
    toleration.effect ?? '',
    toleration.tolerationSeconds === undefined || toleration.tolerationSeconds === null
      ? ''
      : String(toleration.tolerationSeconds),
  ];
  return fields.some((f) => SEPARATORS.test(f)) ? [] : [fields.join(':')];
}
