// `landlord migrate-storage`: after an upgrade to v1beta1, stores every Tenant and TenantClass
// under it once and trims v1alpha1 from the CRDs' status.storedVersions, so a later release can
// stop serving v1alpha1 (ADR 0011, docs/deploying.md). Run by a person (or a Job) with rights to
// patch tenants and tenantclasses, and customresourcedefinitions/status.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { failed } from './history-options.js';

const MIGRATE_EXIT = { ok: 0, failed: 1 } as const;

/** Objects per second: a positive number. */
function parseRate(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('a rate is a positive number');
  return value;
}

async function migrate(options: { rate: number }): Promise<number> {
  try {
    // The cluster client loads only when the command runs.
    const { migrateStorage } = await import('./migrate-storage/run.js');
    await migrateStorage({ rate: options.rate, say: (line) => process.stdout.write(`${line}\n`) });
    return MIGRATE_EXIT.ok;
  } catch (err) {
    return failed('migrate-storage', err);
  }
}

export function addMigrateStorageCommand(landlord: Command, setCode: (code: number) => void): void {
  landlord
    .command('migrate-storage')
    .summary("Store every Tenant and TenantClass under the CRDs' current version, once.")
    .description(
      'Rewrite every Tenant and TenantClass stored under an older version (v1alpha1) so it is stored ' +
        "under the CRD's storage version (v1beta1), then leave only that version in the CRD's " +
        'status.storedVersions. Changes no spec, no generation and no child; an object already ' +
        'stored under the storage version is not written. Safe to run again.',
    )
    .addOption(
      new Option('--rate <n>', 'objects rewritten per second at most').argParser(parseRate).default(20),
    )
    .addHelpText('after', '\nThe kubeconfig is found as kubectl finds it (KUBECONFIG, ~/.kube/config).\n')
    .action(async (options: { rate: number }) => {
      setCode(await migrate(options));
    });
}
