// What every pod template rule is: a function of the pod spec and what it needs besides, giving
// the first field at fault. Its own module, so the rules and the list of them import it alike.
import type { V1PodSpec } from '@kubernetes/client-node';
import type { ClassPolicy } from './class.js';
import type { Violation } from './pss-pod.js';

/** What a rule needs beyond the pod spec. */
export interface RuleContext {
  tenantClass: ClassPolicy;
  /** The row's own ConfigMaps in the Deployment's namespace: the only ones its pods may read. */
  ownConfigMaps: ReadonlySet<string>;
}

export type PodRule = (spec: V1PodSpec, context: RuleContext) => Violation | undefined;
