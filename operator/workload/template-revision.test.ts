// The operator's own pod template additions by revision, and why a Deployment would change.
import { describe, expect, it } from 'vitest';
import type { V1Deployment } from '@kubernetes/client-node';
import { LABEL } from '../../api/tenant.js';
import { childRef } from '../child-ref.js';
import { SPEC_HASH_ANNOTATION, type DesiredChild } from '../desired.js';
import {
  atRevision,
  revisionOf,
  TEMPLATE_REVISION_ANNOTATION,
  upgradeCause,
  type TemplateOwner,
} from './template-revision.js';

const shared: TemplateOwner = {
  tenant: 'acme',
  tenantClass: { namespace: { mode: 'Shared', nameTemplate: '{name}' } as never },
};
const pooled: TemplateOwner = {
  tenant: 'acme',
  tenantClass: { namespace: { mode: 'PerTenant', nameTemplate: 'app-{id}' } as never },
};

const child: DesiredChild = {
  ref: childRef('Deployment', 'team-a', 'web'),
  hash: 'h1',
  manifest: {
    metadata: { name: 'web', annotations: { [SPEC_HASH_ANNOTATION]: 'h1' } },
    spec: { selector: {}, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [] } } },
  } as V1Deployment,
};

/** The Deployment as an operator writing `revision` left it, with `replicas`. */
function live(revision: number, owner = shared, replicas = 1): V1Deployment {
  const manifest = atRevision(child, revision, owner).manifest as V1Deployment;
  return { ...manifest, spec: { ...manifest.spec!, replicas } };
}

const podLabels = (d: DesiredChild): Record<string, string> =>
  (d.manifest as V1Deployment).spec!.template.metadata!.labels!;

describe('template revisions', () => {
  it('revision 1 adds nothing; revision 2 labels the pods with the tenant and says so, keeping the hash', () => {
    expect(atRevision(child, 1, shared)).toBe(child);
    const two = atRevision(child, 2, shared);
    expect(podLabels(two)).toEqual({ app: 'web', [LABEL.tenant]: 'acme' });
    expect(two.manifest.metadata?.annotations?.[TEMPLATE_REVISION_ANNOTATION]).toBe('2');
    expect(two.hash).toBe(child.hash);
    expect(podLabels(child)).toEqual({ app: 'web' });
  });

  it('a class named by "{id}" (warm pools) gets nothing: a claimed member keeps its pods', () => {
    expect(atRevision(child, 2, pooled)).toBe(child);
  });

  it('reads a Deployment without the annotation, or with nonsense, as revision 1', () => {
    expect(revisionOf(live(1))).toBe(1);
    expect(revisionOf(live(2))).toBe(2);
    expect(revisionOf({ metadata: { annotations: { [TEMPLATE_REVISION_ANNOTATION]: 'x' } } })).toBe(1);
  });

  it.each([
    ['none exists', undefined, 'tenant'],
    [
      'the row changed',
      { ...live(1), metadata: { annotations: { [SPEC_HASH_ANNOTATION]: 'h0' } } },
      'tenant',
    ],
    ['only the revision is older', live(1), 'operator'],
    ['it is at the revision', live(2), 'none'],
    ['it runs no pods', live(1, shared, 0), 'none'],
  ] as const)('a Deployment whose %s: %s', (_, deployment, cause) => {
    expect(upgradeCause(deployment, child, 2, shared)).toBe(cause);
  });

  it('a "{id}" class Deployment at revision 1 needs nothing from revision 2', () => {
    expect(upgradeCause(live(1, pooled), child, 2, pooled)).toBe('none');
  });
});
