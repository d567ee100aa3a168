// `landlord plan`'s output: for people, one block per tenant that would change (unchanged ones are
// only counted) and a summary line; for scripts, the whole plan as JSON.
import type { Plan, PlanKind, TenantPlan } from './plan.js';

const MARK: Record<PlanKind, string> = {
  create: '+',
  update: '~',
  delete: '-',
  heldBack: '!',
  notOwned: '#',
  refused: 'x',
  unchanged: '=',
};

const LABEL: Record<PlanKind, string> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  heldBack: 'held back',
  notOwned: 'not owned by this sync, left alone',
  refused: 'refused',
  unchanged: 'unchanged',
};

function tenantBlock(t: TenantPlan): string[] {
  const head = `${MARK[t.kind]} ${t.name} (${LABEL[t.kind]}${t.writes || t.kind !== 'refused' ? '' : ', already reported'})`;
  const lines = [t.note === undefined ? head : `${head}: ${t.note}`];
  if (t.refusal !== undefined) {
    lines.push(`    ${t.refusal.condition}=False ${t.refusal.reason}: ${t.refusal.message}`);
  }
  lines.push(...t.specChanges.map((change) => `    spec: ${change}`));
  lines.push(...t.children.map((c) => `    ${c.child}: ${c.action}`));
  if (t.url !== undefined) lines.push(`    url: ${t.url}`);
  lines.push(...hostLines(t));
  return lines;
}

/** The exposure decision's hosts, as HostsReady and the other Tenant's reconcile will say them. */
function hostLines({ hosts }: TenantPlan): string[] {
  if (hosts === undefined) return [];
  return [
    ...hosts.withheld.map((w) => `    host ${w.host}: withheld (${w.reason}: ${w.holder})`),
    ...hosts.takenFrom.map((t) => `    host ${t.host}: taken from Tenant ${t.tenant}`),
    ...hosts.strays.map(
      (s) => `    ${s.route}: not made by landlord, serves ${s.hosts.join(', ')} (not held)`,
    ),
  ];
}

function summaryLine(plan: Plan): string {
  const { counts } = plan;
  const parts = [
    `${counts.create} to create`,
    `${counts.update} to update`,
    `${counts.delete} to delete`,
    `${counts.heldBack} held back`,
    `${counts.refused} refused`,
    `${counts.unchanged} unchanged`,
    `${counts.notOwned} not owned`,
  ];
  const unnamed = plan.unnamedRows.length;
  const skipped = unnamed === 0 ? '' : `; ${unnamed} row${unnamed === 1 ? '' : 's'} skipped (unusable name)`;
  const verdict = plan.changes ? '' : ' Nothing would be written.';
  return `Plan: ${parts.join(', ')}${skipped}.${verdict}`;
}

export function planText(plan: Plan, heading: string): string {
  // An unchanged tenant is shown only for what it does not route (withheld hosts, stray routes).
  const blocks = plan.tenants
    .filter((t) => t.kind !== 'unchanged' || t.hosts !== undefined)
    .flatMap(tenantBlock);
  const unnamed = plan.unnamedRows.map((p) => `? a row sync skips: ${p.message}`);
  const body = [...blocks, ...unnamed];
  return [heading, '', ...(body.length > 0 ? [...body, ''] : []), summaryLine(plan)].join('\n') + '\n';
}

export function planJson(plan: Plan, source: { table: string; server: string }): string {
  return `${JSON.stringify({ ...source, ...plan }, null, 2)}\n`;
}
