// What changed from one revision to the next: a one-line summary for `landlord history`
// ("image nginx:1.27 → nginx:1.28, configMaps +1") and the field-by-field diff for `--revision N`
// and `rollback --dry-run`. Pure: both revisions are in hand.
import type { TenantSpec } from '../../api/tenant.js';
import { DEFAULT_STATE } from '../../api/tenant.js';
import { describeChange, diffJson } from '../../util/json-diff.js';

interface Container {
  name?: string;
  image?: string;
}

/** The containers of the Deployment, or of every Deployment of a row of several. */
const containersOf = (spec: TenantSpec): Container[] =>
  (spec.deployments ?? [spec.deployment]).flatMap((d) => d?.spec?.template?.spec?.containers ?? []);

/** Replicas as Kubernetes reads them: none written means 1. */
const replicasOf = (spec: TenantSpec): number => spec.deployment?.spec?.replicas ?? 1;

function imageChanges(before: TenantSpec, after: TenantSpec): string[] {
  const was = new Map(containersOf(before).map((c) => [c.name, c.image]));
  const now = containersOf(after);
  const named = now.length > 1;
  const parts = now
    .filter((c) => was.has(c.name) && was.get(c.name) !== c.image)
    .map(
      (c) =>
        `image ${named ? `${c.name ?? ''} ` : ''}${was.get(c.name) ?? '(none)'} → ${c.image ?? '(none)'}`,
    );
  const names = new Set(now.map((c) => c.name));
  const added = now.filter((c) => !was.has(c.name)).length;
  const removed = [...was.keys()].filter((name) => !names.has(name)).length;
  return [...parts, ...counted('containers', added, removed, 0)];
}

type Named = { metadata?: { name?: string } };

/** "configMaps +1", "deployments -2 ~1": manifests by name, added, removed and changed. */
function listChanges(what: string, before: readonly Named[], after: readonly Named[]): string[] {
  const byName = (list: readonly Named[]): Map<string, string> =>
    new Map(list.map((c) => [c.metadata?.name ?? '', JSON.stringify(c)]));
  const was = byName(before);
  const now = byName(after);
  const added = [...now.keys()].filter((name) => !was.has(name)).length;
  const removed = [...was.keys()].filter((name) => !now.has(name)).length;
  const changed = [...now].filter(([name, text]) => was.has(name) && was.get(name) !== text).length;
  return counted(what, added, removed, changed);
}

const configMapChanges = (before: TenantSpec, after: TenantSpec): string[] =>
  listChanges('configMaps', before.configMaps ?? [], after.configMaps ?? []);

/** A row of several Deployments (spec.deployments): which were added, removed or changed. */
function deploymentListChanges(before: TenantSpec, after: TenantSpec): string[] {
  if (before.deployments === undefined && after.deployments === undefined) return [];
  const listed = (spec: TenantSpec): Named[] =>
    spec.deployments ?? (spec.deployment ? [spec.deployment] : []);
  return listChanges('deployments', listed(before), listed(after));
}

function counted(what: string, added: number, removed: number, changed: number): string[] {
  const marks = [
    added > 0 ? `+${added}` : '',
    removed > 0 ? `-${removed}` : '',
    changed > 0 ? `~${changed}` : '',
  ].filter((mark) => mark !== '');
  return marks.length === 0 ? [] : [`${what} ${marks.join(' ')}`];
}

function scalarChange(what: string, before: string, after: string): string[] {
  return before === after ? [] : [`${what} ${before} → ${after}`];
}

/** Paths the summary already names; any other change of the Deployment is counted as fields. */
const NAMED_PATH = /^spec\.replicas$|^spec\.template\.spec\.containers\[\d+\](\.image|\.name)?$/;

function otherDeploymentChanges(before: TenantSpec, after: TenantSpec): string[] {
  if (before.deployments !== undefined || after.deployments !== undefined) return [];
  const others = diffJson(before.deployment, after.deployment).filter((c) => !NAMED_PATH.test(c.path));
  if (others.length === 0) return [];
  return [`deployment ${others.length} other field${others.length === 1 ? '' : 's'}`];
}

/** Image and replicas, in words, between two revisions of one Deployment each. */
function oneDeploymentChanges(before: TenantSpec, after: TenantSpec): string[] {
  if (before.deployments !== undefined || after.deployments !== undefined) return [];
  return [
    ...imageChanges(before, after),
    ...scalarChange('replicas', String(replicasOf(before)), String(replicasOf(after))),
  ];
}

/** One line naming what `after` changed from `before`; `before` undefined: the first revision kept. */
export function summarize(before: TenantSpec | undefined, after: TenantSpec): string {
  if (before === undefined) {
    const images = containersOf(after).map((c) => c.image ?? '(none)');
    return `first revision kept: image ${images.join(', ')}`;
  }
  const parts = [
    ...oneDeploymentChanges(before, after),
    ...configMapChanges(before, after),
    ...deploymentListChanges(before, after),
    ...scalarChange('state', before.state ?? DEFAULT_STATE, after.state ?? DEFAULT_STATE),
    ...scalarChange('class', before.class ?? '(default)', after.class ?? '(default)'),
    ...otherDeploymentChanges(before, after),
  ];
  return parts.length === 0 ? 'no change' : parts.join(', ');
}

/** The content a revision compares by: what the Tenant got from the row. */
const content = (spec: TenantSpec): Record<string, unknown> => ({
  ...(spec.deployments === undefined ? { deployment: spec.deployment } : { deployments: spec.deployments }),
  configMaps: spec.configMaps ?? [],
  state: spec.state ?? DEFAULT_STATE,
  ...(spec.class === undefined ? {} : { class: spec.class }),
});

/** Every field `after` changed from `before`, one line each ("deployment.spec.replicas: 1 → 3"). */
export function specDiff(before: TenantSpec | undefined, after: TenantSpec): string[] {
  return diffJson(before === undefined ? undefined : content(before), content(after)).map(describeChange);
}
