// What the shipped manifests run the components with, so the benchmark measures that and not
// something friendlier: the operator's default concurrency and each component's NODE_OPTIONS from
// config/manager/*.yaml (which differ from Node's defaults on purpose, see docs/performance.md).
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

/**
 * NODE_OPTIONS of the component's Deployment in config/manager/<component>.yaml: each component is
 * measured with its own heap limits, so a change to one manifest is what the benchmark runs.
 */
export function deployedNodeOptions(component: 'sync' | 'operator'): string {
  const file = join(repoRoot, 'config', 'manager', `${component}.yaml`);
  const docs = loadAll(readFileSync(file, 'utf8')) as Manifest[];
  const env = docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0]?.env ?? [];
  const value = env.find((e) => e.name === 'NODE_OPTIONS')?.value;
  if (value === undefined) throw new Error(`config/manager/${component}.yaml sets no NODE_OPTIONS`);
  return value;
}

/**
 * The manifests are sized for 5,000 tenants and say to raise the old-space cap by ~15 MiB per
 * 1,000 tenants beyond that (config/manager/*.yaml). A run at 10,000 or 20,000 tenants follows
 * that advice, as an installation of that size would, rather than measuring a cap nobody should run.
 */
const SIZED_FOR = 5000;
const MIB_PER_1000 = 15;

/** The deployed NODE_OPTIONS with the old-space cap raised as the manifests advise for n tenants. */
export function nodeOptionsFor(component: 'sync' | 'operator', n: number | undefined): string {
  const deployed = deployedNodeOptions(component);
  if (n === undefined || n <= SIZED_FOR) return deployed;
  const extra = Math.ceil((n - SIZED_FOR) / 1000) * MIB_PER_1000;
  return deployed.replace(
    /--max-old-space-size=(\d+)/,
    (_, mib: string) => `--max-old-space-size=${Number(mib) + extra}`,
  );
}
