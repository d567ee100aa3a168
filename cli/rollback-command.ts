// `landlord rollback <tenant> --to-revision N`: writes revision N's row back to the DynamoDB table,
// the source of truth, with a conditional write (the row must still hold the newest revision's
// content); sync then applies it as any edit. Run by a person with their own AWS credentials: it
// needs dynamodb:GetItem and dynamodb:UpdateItem on the table, and `list` on ControllerRevisions
// in landlord's namespace. It never writes to the cluster.
import type { Command } from 'commander';
import { describeSettings, loadSettings } from '../runtime/config.js';
import { SYNC_SETTINGS } from '../sync/settings.js';
import { failed, HISTORY_EXIT, historyNamespace, namespaceOption, parseRevision } from './history-options.js';

const { table, endpoint } = SYNC_SETTINGS;
/** The table settings sync reads, under the same names; flags override them. */
const TABLE_SETTINGS = { table, endpoint } as const;

/** What the rollback writes as `changedBy`, unless --changed-by says who. */
const DEFAULT_CHANGED_BY = 'landlord rollback';

interface RollbackOptions {
  toRevision: number;
  namespace?: string;
  table?: string;
  endpoint?: string;
  dryRun?: boolean;
  changedBy: string;
}

function tableSettings(options: RollbackOptions): { table: string; endpoint?: string } {
  const env = {
    ...process.env,
    ...(options.table === undefined ? {} : { DYNAMODB_TABLE: options.table }),
    ...(options.endpoint === undefined ? {} : { DYNAMODB_ENDPOINT: options.endpoint }),
  };
  return loadSettings<{ table: string; endpoint?: string }>(TABLE_SETTINGS, env);
}

async function rollbackTenant(tenant: string, options: RollbackOptions): Promise<number> {
  try {
    const settings = tableSettings(options);
    const namespace = historyNamespace(options.namespace);
    // The AWS SDK and the cluster client load only when a rollback is asked for.
    const { rollback } = await import('./rollback/run.js');
    const out = await rollback({
      tenant,
      revision: options.toRevision,
      namespace,
      ...settings,
      dryRun: options.dryRun === true,
      changedBy: options.changedBy,
    });
    process.stdout.write(out);
    return HISTORY_EXIT.ok;
  } catch (err) {
    return failed('rollback', err);
  }
}

export function addRollbackCommand(landlord: Command, setCode: (code: number) => void): void {
  landlord
    .command('rollback')
    .summary("Write one of a tenant's revisions back to the table (a conditional write).")
    .description(
      "Write revision N's row back to the DynamoDB table, only if the row still holds the newest " +
        'revision (else it refuses and writes nothing); sync then applies it as any edit. Needs ' +
        'dynamodb:GetItem and dynamodb:UpdateItem on the table.',
    )
    .argument('<tenant>', 'the tenant (the row name)')
    .requiredOption(
      '--to-revision <n>',
      'the revision to roll back to (landlord history lists them)',
      parseRevision,
    )
    .option('--dry-run', 'print what would change, write nothing')
    .option('--changed-by <who>', 'the changedBy the row gets', DEFAULT_CHANGED_BY)
    .option('--table <table>', 'the DynamoDB table (default: DYNAMODB_TABLE)')
    .option('--endpoint <url>', 'the DynamoDB endpoint (default: DYNAMODB_ENDPOINT, else AWS)')
    .addOption(namespaceOption())
    .addHelpText(
      'after',
      `\nEnvironment (sync's table settings; AWS credentials and AWS_REGION as the AWS SDK finds them; the kubeconfig as kubectl finds it):\n${describeSettings(TABLE_SETTINGS)}\n`,
    )
    .action(async (tenant: string, options: RollbackOptions) => {
      setCode(await rollbackTenant(tenant, options));
    });
}
