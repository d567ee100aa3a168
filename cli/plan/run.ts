// Reading a plan: the table through sync's table source, the cluster through a read-only client.
// Apart from plan-command.ts so that only `landlord plan` loads these readers.
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { servesHttpRoutes } from '../../operator/exposure/gateway-api.js';
import { policyConfig, watchScopes, type PolicySettings } from '../../operator/settings.js';
import { createLogger } from '../../runtime/logger.js';
import { apiServerStartupError } from '../../runtime/startup-error.js';
import { DynamoTableSource } from '../../sync/dynamo/dynamo-source.js';
import { tableIdentity } from '../../sync/identity.js';
import { planSync } from '../../sync/dry-run.js';
import { placementOf } from '../../sync/settings.js';
import type { Tenant } from '../../api/tenant.js';
import type { PolicyConfig } from '../../operator/policy/index.js';
import { makePlan, type Plan } from './plan.js';
import { ListedChildren, readRows, readTenants, ReadOnlyKubeApi } from './read.js';

export interface PlanSettings extends PolicySettings {
  table: string;
  endpoint?: string;
  scanSegments: number;
  maxDeleteFraction: number;
  maxDeleteMinimum: number;
  cluster?: string;
  clusterClaimsUnassigned: boolean;
}

/** The plan, and the API server it was read from; the kubeconfig is found as kubectl finds it. */
export async function readPlan(settings: PlanSettings): Promise<{ server: string; plan: Plan }> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const api = new ReadOnlyKubeApi(kubeConfig);
  const logger = createLogger('plan', 'warn', { stream: process.stderr });
  const source = new DynamoTableSource({
    table: settings.table,
    endpoint: settings.endpoint,
    scanSegments: settings.scanSegments,
    observeRetries: () => undefined,
    logger,
  });
  // Rows placed on other clusters are not this cluster's plan: they are left out as sync skips them.
  const identity = tableIdentity(settings.table, placementOf(settings));
  try {
    await source.check();
    const { policy, children, tenants } = await readCluster(api, settings).catch((err: unknown) => {
      throw apiServerStartupError(err, api.server);
    });
    const { rows, unnamed } = await readRows(source, identity, AbortSignal.timeout(10 * 60_000));
    const limits = { fraction: settings.maxDeleteFraction, minimum: settings.maxDeleteMinimum };
    const sync = planSync({ rows, tenants, identity, limits });
    const plan = await makePlan(sync, unnamed, policy, { children, tenants });
    return { server: api.server, plan };
  } finally {
    source.close();
  }
}

/**
 * The cluster's side of a plan. The children are read before the Tenants: the operator makes a
 * child only for a Tenant that exists, so each child read has its Tenant in the later list (or
 * its Tenant was deleted meanwhile, and the child is an earlier Tenant's). Read the other way
 * round, a Tenant that sync and the operator made between the two lists would leave its new
 * namespace looking like an earlier Tenant's.
 */
async function readCluster(
  api: ReadOnlyKubeApi,
  settings: PlanSettings,
): Promise<{ policy: PolicyConfig; children: ListedChildren; tenants: Tenant[] }> {
  // As the operator asks at start-up: a class's HTTPRoute is refused where none is served.
  const gatewayApi = await servesHttpRoutes(api);
  const policy = { ...policyConfig(settings), gatewayApi };
  const children = await ListedChildren.read(api, watchScopes(settings), policy);
  const tenants = await readTenants(api);
  return { policy, children, tenants };
}
