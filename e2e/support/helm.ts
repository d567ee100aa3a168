// The pinned helm (harness/tools) and Helm 3 (harness/helm3), pointed at the test cluster, and charts/landlord rendered next
// to config/ so the two can be compared object by object.
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadAll } from 'js-yaml';
import { repoRoot } from '../../harness/paths.js';
import { ensureHelm, ensureHelm3 } from '../../harness/tools.js';
import { envValue } from './env.js';
import { kubectl } from './kubectl.js';

const run = promisify(execFile);

export const CHART = join(repoRoot, 'charts', 'landlord');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * helm, with its config, cache and data in the run's directory rather than the user's home (HOME
 * too: its Kubernetes client keeps a discovery cache under $HOME/.kube, or in the working
 * directory when HOME is unset).
 */
export async function helm(...args: string[]): Promise<string> {
  return runHelm(await ensureHelm(), 'helm', args);
}

/** The pinned Helm 3 (harness/helm3), with a home of its own. */
export async function helm3(...args: string[]): Promise<string> {
  return runHelm(await ensureHelm3(), 'helm3', args);
}

async function runHelm(binary: string, homeName: string, args: string[]): Promise<string> {
  const home = join(envValue('LANDLORD_E2E_RUN_DIR'), homeName);
  await mkdir(home, { recursive: true });
  const { stdout } = await run(binary, args, {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      KUBECONFIG: envValue('KUBECONFIG'),
      HELM_CONFIG_HOME: join(home, 'config'),
      HELM_CACHE_HOME: join(home, 'cache'),
      HELM_DATA_HOME: join(home, 'data'),
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The error helm printed when it refused, or undefined when it did not refuse. */
export async function helmRefusal(...args: string[]): Promise<string | undefined> {
  try {
    await helm(...args);
    return undefined;
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
}

export const parseManifests = (text: string): Manifest[] =>
  loadAll(text).filter((doc): doc is Manifest => doc !== null && typeof doc === 'object');

/** The chart as `helm template` renders it, CRD included, with `args` (e.g. --set) added. */
export async function renderChart(...args: string[]): Promise<Manifest[]> {
  return parseManifests(await helm('template', 'landlord', CHART, '--include-crds', ...args));
}

/** A kustomization as kustomize renders it. */
export async function renderKustomize(dir: string): Promise<Manifest[]> {
  return parseManifests(await kubectl('kustomize', dir));
}

/**
 * The one part that must differ: the ConfigMaps' name suffix is a hash of their content, and
 * kustomize and the chart each compute their own (the chart cannot run kustomize's hasher).
 * Both roll the pods on a changed setting; the names are compared without it.
 */
export function withoutConfigHash(objects: Manifest[]): Manifest[] {
  const text = JSON.stringify(objects).replace(
    /("landlord-(?:operator|sync|purger)-config)-[a-z0-9]{10}"/g,
    '$1-<hash>"',
  );
  return JSON.parse(text) as Manifest[];
}

export const objectKey = (o: Manifest): string =>
  `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** Objects keyed by kind, namespace and name: the order of the documents means nothing. */
export const byKey = (objects: Manifest[]): Record<string, Manifest> =>
  Object.fromEntries(objects.map((o) => [objectKey(o), o]));
