// `landlord plan`: what sync and the operator would do now, tenant by tenant, without doing it.
// It needs only read access: Scan and DescribeTable on the table, get/list on Tenants,
// Deployments and ConfigMaps. Exit codes follow `terraform plan -detailed-exitcode`, so that a
// script can tell "nothing to do" from "changes" from "could not tell".
import { KubeConfig } from '@kubernetes/client-node';
import { Option, type Command } from 'commander';
import { POLICY_SETTINGS, policyConfig, watchScopes, type PolicySettings } from '../operator/index.js';
import { describeSettings, loadSettings } from '../runtime/config.js';
import { createLogger } from '../runtime/logger.js';
import { apiServerStartupError } from '../runtime/startup-error.js';
import { SYNC_SETTINGS } from '../sync/index.js';
import { placementOf } from '../sync/settings.js';
import { DynamoTableSource } from '../sync/dynamo/dynamo-source.js';
import { tableIdentity } from '../sync/identity.js';
import { planSync } from '../sync/plan.js';
import { makePlan, type Plan } from './plan/plan.js';
import { ListedChildren, readRows, readTenants, ReadOnlyKubeApi } from './plan/read.js';
import { planJson, planText } from './plan/render.js';

export const PLAN_EXIT = { unchanged: 0, failed: 1, changes: 2 } as const;

const {
  table,
  endpoint,
  scanSegments,
  maxDeleteFraction,
  maxDeleteMinimum,
  cluster,
  clusterClaimsUnassigned,
} = SYNC_SETTINGS;
/** sync's settings that change what it would do, and the operator's policy. */
export const PLAN_SETTINGS = {
  table,
  endpoint,
  scanSegments,
  maxDeleteFraction,
  maxDeleteMinimum,
  cluster,
  clusterClaimsUnassigned,
  ...POLICY_SETTINGS,
} as const;

interface PlanSettings extends PolicySettings {
  table: string;
  endpoint?: string;
  scanSegments: number;
  maxDeleteFraction: number;
  maxDeleteMinimum: number;
  cluster?: string;
  clusterClaimsUnassigned: boolean;
}

type Format = 'text' | 'json';

async function readPlan(settings: PlanSettings, api: ReadOnlyKubeApi): Promise<Plan> {
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
    const tenants = await readTenants(api).catch((err: unknown) => {
      throw apiServerStartupError(err, api.server);
    });
    const children = await ListedChildren.read(api, watchScopes(settings));
    const { rows, unnamed } = await readRows(source, identity, AbortSignal.timeout(10 * 60_000));
    const limits = { fraction: settings.maxDeleteFraction, minimum: settings.maxDeleteMinimum };
    const sync = planSync({ rows, tenants, identity, limits });
    return await makePlan(sync, unnamed, policyConfig(settings), children);
  } finally {
    source.close();
  }
}

async function plan(format: Format): Promise<number> {
  let settings: PlanSettings;
  let api: ReadOnlyKubeApi;
  let result: Plan;
  try {
    settings = loadSettings<PlanSettings>(PLAN_SETTINGS, process.env);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromDefault();
    api = new ReadOnlyKubeApi(kubeConfig);
    result = await readPlan(settings, api);
  } catch (err) {
    // A bad setting, an unreachable server, a missing table: one line, and never exit 2.
    process.stderr.write(`landlord: plan: ${err instanceof Error ? err.message : String(err)}\n`);
    return PLAN_EXIT.failed;
  }
  const where = { table: settings.table, server: api.server };
  process.stdout.write(
    format === 'json'
      ? planJson(result, where)
      : planText(result, `landlord plan: DynamoDB table ${JSON.stringify(where.table)} → ${where.server}`),
  );
  return result.changes ? PLAN_EXIT.changes : PLAN_EXIT.unchanged;
}

export function addPlanCommand(landlord: Command, setCode: (code: number) => void): void {
  landlord
    .command('plan')
    .summary('Show what sync and the operator would do now, without doing it.')
    .description(
      'Show what sync and the operator would do now, tenant by tenant, without writing anything: ' +
        'exit 0 when nothing would change, 2 when something would, 1 when the plan could not be made.',
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .addHelpText(
      'after',
      `\nEnvironment (sync's table settings and the operator's policy; the kubeconfig as kubectl finds it):\n${describeSettings(PLAN_SETTINGS)}\n`,
    )
    .action(async (options: { output: Format }) => {
      setCode(await plan(options.output));
    });
}
