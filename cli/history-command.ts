// `landlord history <tenant>`: the revisions sync kept of the tenant (each spec it applied), newest
// last, with a one-line summary of what each changed; `--revision N` shows one revision's diff
// against the revision before it. Needs only `list` on ControllerRevisions in landlord's namespace.
import type { Command } from 'commander';
import type { Revision } from '../api/revision.js';
import {
  failed,
  HISTORY_EXIT,
  historyNamespace,
  namespaceOption,
  outputOption,
  parseRevision,
  type Format,
} from './history-options.js';

interface HistoryOptions {
  namespace?: string;
  output: Format;
  revision?: number;
}

async function history(tenant: string, options: HistoryOptions): Promise<number> {
  let namespace: string;
  let revisions: Revision[];
  try {
    namespace = historyNamespace(options.namespace);
    // The cluster client loads only when history is asked for.
    const { readRevisions } = await import('./history/read.js');
    revisions = await readRevisions({ namespace, tenant });
  } catch (err) {
    return failed('history', err);
  }
  const render = await import('./history/render.js');
  if (revisions.length === 0)
    return failed('history', `no revisions of tenant ${tenant} in namespace ${namespace}`);
  if (options.revision === undefined) {
    const out =
      options.output === 'json'
        ? render.historyJson(tenant, namespace, revisions)
        : render.historyText(revisions);
    process.stdout.write(out);
    return HISTORY_EXIT.ok;
  }
  const revision = revisions.find((r) => r.revision === options.revision);
  if (revision === undefined) {
    const kept = revisions.map((r) => r.revision).join(', ');
    return failed('history', `tenant ${tenant} has no revision ${options.revision} (kept: ${kept})`);
  }
  process.stdout.write(
    options.output === 'json'
      ? render.revisionJson(revisions, revision)
      : render.revisionText(revisions, revision),
  );
  return HISTORY_EXIT.ok;
}

export function addHistoryCommand(landlord: Command, setCode: (code: number) => void): void {
  landlord
    .command('history')
    .summary("Show a tenant's revisions: each spec sync applied, newest last.")
    .description(
      "Show a tenant's revisions (each spec sync applied to its Tenant, kept as ControllerRevisions in " +
        "landlord's namespace), newest last, with what each changed; --revision N shows one revision's " +
        'changes against the revision before it.',
    )
    .argument('<tenant>', 'the tenant (the row name)')
    .option('--revision <n>', 'show this revision and its changes', parseRevision)
    .addOption(namespaceOption())
    .addOption(outputOption())
    .addHelpText('after', '\nThe kubeconfig is found as kubectl finds it (KUBECONFIG, ~/.kube/config).\n')
    .action(async (tenant: string, options: HistoryOptions) => {
      setCode(await history(tenant, options));
    });
}
