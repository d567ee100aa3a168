// `landlord plan`: what sync and the operator would do now, tenant by tenant, without doing it.
// It needs only read access: Scan and DescribeTable on the table, get/list on Tenants,
// Deployments and ConfigMaps. Exit codes follow `terraform plan -detailed-exitcode`, so that a
// script can tell "nothing to do" from "changes" from "could not tell".
import { Option, type Command } from 'commander';
import { POLICY_SETTINGS } from '../operator/settings.js';
import { describeSettings, loadSettings } from '../runtime/config.js';
import { SYNC_SETTINGS } from '../sync/settings.js';
import { planJson, planText } from './plan/render.js';
import type { Plan } from './plan/plan.js';
import type { PlanSettings } from './plan/run.js';

export const PLAN_EXIT = { unchanged: 0, failed: 1, changes: 2 } as const;

/** sync's settings that change what it would do. */
const SYNC_PLAN_KEYS = [
  'table',
  'endpoint',
  'scanSegments',
  'maxDeleteFraction',
  'maxDeleteMinimum',
  'cluster',
  'clusterClaimsUnassigned',
] as const satisfies readonly (keyof typeof SYNC_SETTINGS)[];

/** Those, and the operator's policy. */
const PLAN_SETTINGS = {
  ...pick(SYNC_SETTINGS, SYNC_PLAN_KEYS),
  ...POLICY_SETTINGS,
};

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, from[key]])) as Pick<T, K>;
}

type Format = 'text' | 'json';

async function plan(format: Format): Promise<number> {
  let settings: PlanSettings;
  let server: string;
  let result: Plan;
  try {
    settings = loadSettings<PlanSettings>(PLAN_SETTINGS, process.env);
    // The readers (client-node, the AWS SDK) load only when a plan is asked for.
    const { readPlan } = await import('./plan/run.js');
    ({ server, plan: result } = await readPlan(settings));
  } catch (err) {
    // A bad setting, an unreachable server, a missing table: one line, and never exit 2.
    process.stderr.write(`landlord: plan: ${err instanceof Error ? err.message : String(err)}\n`);
    return PLAN_EXIT.failed;
  }
  const where = { table: settings.table, server };
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
