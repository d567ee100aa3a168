// What the shipped manifests run the components with, so the benchmark measures that and not
// something friendlier: the operator's default concurrency, the NODE_OPTIONS of
// config/manager/*.yaml and the V8 flags of the image's ENTRYPOINT (which differ from Node's
// defaults on purpose, see docs/performance.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { repoRoot } from '../harness/paths.js';
import { OPERATOR_SETTINGS } from '../operator/settings.js';

export const DEFAULT_CONCURRENCY = Number(OPERATOR_SETTINGS.concurrency.default);

interface EnvVar {
  name?: string;
  value?: string;
}
interface Manifest {
  kind?: string;
  spec?: { template?: { spec?: { containers?: { env?: EnvVar[] }[] } } };
}

/** NODE_OPTIONS of the operator's Deployment in config/manager/operator.yaml. */
export function deployedNodeOptions(): string {
  const docs = loadAll(
    readFileSync(join(repoRoot, 'config', 'manager', 'operator.yaml'), 'utf8'),
  ) as Manifest[];
  const env = docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0]?.env ?? [];
  const value = env.find((e) => e.name === 'NODE_OPTIONS')?.value;
  if (value === undefined) throw new Error('config/manager/operator.yaml sets no NODE_OPTIONS');
  return value;
}

/**
 * The flags between `node` and the script in the Dockerfile's ENTRYPOINT: V8 flags that
 * NODE_OPTIONS does not accept (Node.js allows only a few there).
 */
export function imageNodeFlags(): string[] {
  const text = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  const line = [...text.matchAll(/^ENTRYPOINT\s+(\[.*\])\s*$/gm)].at(-1)?.[1];
  if (line === undefined) throw new Error('the Dockerfile has no ENTRYPOINT in exec form');
  const words = JSON.parse(line) as string[];
  return words.slice(1, -1);
}
