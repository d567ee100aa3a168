// Where a Tenant's children go, decided with its desired state: for a "{id}" class, the namespace
// it holds, else a claimed warm pool member, else a cold one. Every other class names its
// namespace by template, and the engine decides alone. A claim is told with an Event and counted.
import type { Tenant } from '../../api/tenant.js';
import type { EventRecorder } from '../../runtime/kube/events.js';
import type { Logger } from '../../runtime/logger.js';
import type { ClusterView } from '../facets/contract.js';
import { desiredState, type Wanted } from '../facets/engine.js';
import { idFor, usesId } from '../namespaces/ids.js';
import type { PolicyConfig } from '../policy/index.js';
import { OPERATOR_EVENT, POOL_MESSAGE } from '../reasons.js';
import type { PoolClaims } from './claim.js';

export interface PlacementDeps {
  pool: PoolClaims;
  events: EventRecorder;
  logger: Logger;
  /** What the operator knows beyond one Tenant, as its caches hold it now. */
  view: () => ClusterView;
}

export class Placement {
  constructor(private readonly deps: PlacementDeps) {}

  /**
   * The desired state, decided once. A "{id}" class places the tenant in the namespace it holds
   * (found by its label and owner uid), else, for a new tenant that will run and whose spec every
   * facet accepts, in a claimed warm pool member, else in a cold one (its id derived from the uid).
   */
  async place(tenant: Tenant, policy: PolicyConfig): Promise<Wanted> {
    const { tenantClass } = policy;
    const template = tenantClass.namespace.nameTemplate;
    if (tenantClass.mode !== 'PerTenant' || !usesId(template))
      return desiredState(tenant, policy, this.deps.view());
    const held = this.deps.pool.held(tenant, template);
    if (held !== undefined)
      return desiredState(tenant, { ...policy, namespaceId: idFor(template, held) }, this.deps.view());
    const cold = desiredState(tenant, policy, this.deps.view());
    const pool = tenantClass.warmPool;
    if (!cold.ok || pool === undefined || pool.size === 0 || cold.state !== 'active') return cold;
    return this.claimOrCold(tenant, policy, cold);
  }

  /** A new tenant that will run: a Ready member if one can be claimed, else cold; counted and told. */
  private async claimOrCold(tenant: Tenant, policy: PolicyConfig, cold: Wanted): Promise<Wanted> {
    const { tenantClass } = policy;
    const claimed = await this.deps.pool.claim(tenant, tenantClass);
    const template = tenantClass.namespace.nameTemplate;
    const wanted =
      claimed === undefined
        ? cold
        : desiredState(tenant, { ...policy, namespaceId: idFor(template, claimed) }, this.deps.view());
    const namespace = wanted.ok ? (wanted.namespace ?? '') : '';
    const how = claimed === undefined ? 'cold' : 'warm';
    this.deps.pool.placed(tenant.metadata.name!, tenantClass.name, how);
    const [reason, message] =
      how === 'warm'
        ? [OPERATOR_EVENT.poolClaimed, POOL_MESSAGE.claimed(namespace, tenantClass.name)]
        : [OPERATOR_EVENT.poolEmpty, POOL_MESSAGE.empty(namespace, tenantClass.name)];
    this.deps.events.record(tenant, 'Normal', reason, message);
    this.deps.logger.info(how === 'warm' ? 'claimed warm pool member' : 'warm pool empty; made cold', {
      tenant: tenant.metadata.name,
      class: tenantClass.name,
      namespace,
    });
    return wanted;
  }
}
