// Deploying landlord: the kustomize manifests under config/, against the real API server. They pass
// a server-side dry run; the RBAC lands in the right namespaces; the Deployments run the image as
// the Dockerfile does and meet the restricted Pod Security Standard; and the IAM samples give sync
// and the purger exactly the DynamoDB calls their code makes, each to its own ServiceAccount alone.
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ALL_CRDS } from '../api/crds.js';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { config, repoFile, SYSTEM } from './support/deploy.js';
import { imageUser } from './support/image.js';
import { clients, uniqueName } from './support/env.js';
import { kubectl } from './support/kubectl.js';
import { serviceAccountUser } from './support/service-account.js';

const { core } = clients();

interface Rendered {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  subjects?: { kind: string; namespace?: string }[];
}

/**
 * A kustomization as kustomize renders it, as plain JSON objects. `kubectl create --dry-run=client`
 * prints them exactly as written (apply would merge in the live objects), one JSON document after
 * another, each starting with a `{` line of its own.
 */
async function render(dir: string): Promise<Rendered[]> {
  const text = await kubectl('create', '-k', dir, '--dry-run=client', '-o', 'json');
  return text.split(/\n(?=\{\n)/).map((doc) => JSON.parse(doc) as Rendered);
}

const isEventsRbac = (o: Rendered): boolean =>
  ['landlord-events', 'landlord-operator-events', 'landlord-sync-events', 'landlord-purger-events'].includes(
    o.metadata.name,
  );

/** Runs `use` with an overlay of config/default plus the given components, then removes it. */
async function withOverlay<T>(components: string[], use: (dir: string) => Promise<T>): Promise<T> {
  const overlay = await mkdtemp(join(tmpdir(), 'landlord-overlay-'));
  const from = (dir: string): string => relative(overlay, config(dir));
  await writeFile(
    join(overlay, 'kustomization.yaml'),
    `resources: [${from('default')}]\ncomponents: [${components.map(from).join(', ')}]\n`,
  );
  try {
    return await use(overlay);
  } finally {
    await rm(overlay, { recursive: true });
  }
}

/** config/default with the opt-in purger: every Deployment landlord has. */
const withPurger = (): Promise<Rendered[]> => withOverlay(['purger'], render);

describe('config/: the kustomize manifests against the real API server', () => {
  it('config/default passes a server-side dry run without a warning', async () => {
    await kubectl(
      'apply',
      '-k',
      config('default'),
      '--server-side',
      '--dry-run=server',
      '--warnings-as-errors',
    );
  });

  it('so do the EKS overlay, the optional CRD-installing and purger components and the sample Tenant', async () => {
    await kubectl('apply', '-k', config('eks'), '--server-side', '--dry-run=server', '--warnings-as-errors');
    for (const component of ['install-crd', 'purger'])
      await withOverlay([component], (overlay) =>
        kubectl('apply', '-k', overlay, '--server-side', '--dry-run=server', '--warnings-as-errors'),
      );
    await kubectl('apply', '-f', config('samples/tenant.yaml'), '--server-side', '--dry-run=server');
  });

  it('installs the CRDs that api/ defines (config/crd, from crds/)', async () => {
    // kustomize orders objects its own way; which CRDs, and each exactly, is what counts.
    const byName = (a: Rendered, b: Rendered): number => a.metadata.name.localeCompare(b.metadata.name);
    const defined = ALL_CRDS.map((c) => c.crd as unknown as Rendered);
    expect((await render(config('crd'))).sort(byName)).toEqual(defined.sort(byName));
  });

  it('puts the Events RBAC in default, everything else in landlord-system or at cluster scope', async () => {
    const objects = await withPurger();
    const namespaced = objects.filter((o) => o.metadata.namespace !== undefined);
    expect(
      namespaced
        .filter((o) => o.metadata.namespace === 'default')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual([
      'landlord-events',
      'landlord-operator-events',
      'landlord-purger-events',
      'landlord-sync-events',
    ]);
    expect(namespaced.filter((o) => !isEventsRbac(o)).every((o) => o.metadata.namespace === SYSTEM)).toBe(
      true,
    );
    const subjects = objects.flatMap((o) => o.subjects ?? []);
    expect(subjects.every((s) => s.kind === 'ServiceAccount' && s.namespace === SYSTEM)).toBe(true);
  });

  it('runs each Deployment as the image does: its command, its user, leader election on, two replicas, its memory request passed in', async () => {
    const deployments = (await withPurger()).filter(
      (o) => o.kind === 'Deployment',
    ) as unknown as V1Deployment[];
    expect(deployments.map((d) => d.metadata!.name).sort()).toEqual([
      'landlord-operator',
      'landlord-purger',
      'landlord-sync',
    ]);
    for (const d of deployments) {
      const component = d.metadata!.name!.replace('landlord-', '');
      const pod = d.spec!.template.spec!;
      const container = pod.containers[0]!;
      expect(d.spec!.replicas).toBe(2);
      expect(container.args).toEqual([component]);
      expect(pod.serviceAccountName).toBe(d.metadata!.name);
      expect(String(pod.securityContext!.runAsUser)).toBe(imageUser().split(':')[0]);
      expect(container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
      });
      const env = Object.fromEntries(
        (container.env ?? []).map((e) => [e.name, e.valueFrom?.fieldRef?.fieldPath]),
      );
      expect(env).toMatchObject({ POD_NAMESPACE: 'metadata.namespace', LANDLORD_IDENTITY: 'metadata.name' });
      expect(env).not.toHaveProperty('LANDLORD_LEADER_ELECTION'); // its default is on
      // Near its request a component hands V8's spare pages back even while busy (memory-return.ts).
      const request = container.env?.find((e) => e.name === 'LANDLORD_MEMORY_REQUEST');
      expect(request?.valueFrom?.resourceFieldRef).toEqual({
        containerName: container.name,
        resource: 'requests.memory',
      });
      expect(container.resources?.requests?.memory).toBeDefined();
    }
  });

  it('has pod templates that meet the restricted Pod Security Standard', async () => {
    const ns = uniqueName('restricted');
    const labels = { 'pod-security.kubernetes.io/enforce': 'restricted' };
    await core.createNamespace({ body: { metadata: { name: ns, labels } } });
    try {
      const deployments = (await withPurger()).filter(
        (o) => o.kind === 'Deployment',
      ) as unknown as V1Deployment[];
      for (const d of deployments) {
        // The namespace's default ServiceAccount: landlord's own exist only in landlord-system.
        const spec = { ...d.spec!.template.spec!, serviceAccountName: undefined };
        const pod: V1Pod = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: d.metadata!.name, namespace: ns },
          spec,
        };
        // That default ServiceAccount appears shortly after the namespace.
        await waitUntil(
          `a dry-run Pod of ${d.metadata!.name} to be admitted`,
          () => core.createNamespacedPod({ namespace: ns, body: pod, dryRun: 'All' }),
          { timeoutMs: 30_000 },
        );
      }
    } finally {
      await core.deleteNamespace({ name: ns });
    }
  });

  /** The DynamoDB calls a component's shipped code makes, by the SDK commands it builds. */
  function callsOf(folder: string): Set<string> {
    const sources = readdirSync(join(repoRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .map((file) => repoFile(join(folder, file)));
    return new Set(sources.flatMap((text) => [...text.matchAll(/new (\w+)Command\(/g)].map((m) => m[1]!)));
  }

  interface Policy {
    Statement: { Action: string[]; Resource: string | string[] }[];
  }

  it('gives sync an IAM policy with exactly the DynamoDB calls its code makes', () => {
    const policy = JSON.parse(repoFile('config/samples/iam-policy-sync.json')) as Policy;
    const granted = policy.Statement.flatMap((s) =>
      s.Action.map((a) => `${a} on ${String(s.Resource).includes('/stream/') ? 'stream' : 'table'}`),
    );
    const onStream = ['DescribeStream', 'GetShardIterator', 'GetRecords'];
    const needed = [...callsOf('sync')].map(
      (c) => `dynamodb:${c} on ${onStream.includes(c) ? 'stream' : 'table'}`,
    );
    expect(granted.sort()).toEqual(needed.sort());
  });

  it('gives the purger an IAM policy with exactly the calls its code makes, on data tables only', () => {
    const policy = JSON.parse(repoFile('config/samples/iam-policy-purger.json')) as Policy;
    const granted = policy.Statement.flatMap((s) => s.Action);
    expect(granted.sort()).toEqual([...callsOf('purger')].map((c) => `dynamodb:${c}`).sort());
    const resources = policy.Statement.flatMap((s) => [s.Resource].flat());
    // Not the tenant table sync reads (config/samples/iam-policy-sync.json), not every table.
    expect(resources.some((r) => r.endsWith('/landlord-tenants') || r.endsWith('table/*'))).toBe(false);
  });

  it.each(['sync', 'purger'])("lets %s's ServiceAccount, and only it, assume its role", async (component) => {
    const trust = JSON.parse(repoFile(`config/samples/iam-trust-policy-${component}.json`)) as {
      Statement: { Condition: { StringEquals: Record<string, string> } }[];
    };
    const conditions = Object.entries(trust.Statement[0]!.Condition.StringEquals);
    const sub = conditions.find(([key]) => key.endsWith(':sub'))?.[1];
    const account = (await withPurger()).find(
      (o) => o.kind === 'ServiceAccount' && o.metadata.name === `landlord-${component}`,
    )!;
    expect(sub).toBe(serviceAccountUser(account.metadata.namespace!, account.metadata.name));
  });
});
