// What the shipped manifests run the components with, so the benchmark measures that and not
// something friendlier: the operator's default concurrency, each component's NODE_OPTIONS from
// config/manager/*.yaml and the V8 flags of the image's ENTRYPOINT (which differ from Node's
// defaults on purpose, see docs/performance.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { envOf, instructions, parseDockerfile, type Stage } from '../harness/dockerfile.js';
import { repoRoot } from '../harness/paths.js';
import { quantityValue } from '../util/quantity.js';
import { OPERATOR_SETTINGS } from '../operator/settings.js';
import type { Tenancy } from './tenancy.js';

/** The components with a manifest of their own (component.ts names the same three). */
type ComponentName = 'sync' | 'operator' | 'purger';

export const DEFAULT_CONCURRENCY = Number(OPERATOR_SETTINGS.concurrency.default);

interface EnvVar {
  name?: string;
  value?: string;
}
interface Container {
  env?: EnvVar[];
  resources?: { requests?: { memory?: string } };
}
interface Manifest {
  kind?: string;
  spec?: { template?: { spec?: { containers?: Container[] } } };
}

/** The component's container in config/manager/<component>.yaml, and the file it came from. */
function deployedContainer(component: ComponentName): { file: string; container: Container } {
  // The purger is opt-in, so its manifest lives in its own kustomize component.
  const file = join(repoRoot, 'config', component === 'purger' ? 'purger' : 'manager', `${component}.yaml`);
  const docs = loadAll(readFileSync(file, 'utf8')) as Manifest[];
  const container = docs.find((d) => d.kind === 'Deployment')?.spec?.template?.spec?.containers?.[0] ?? {};
  return { file, container };
}

/**
 * NODE_OPTIONS of the component's Deployment in config/manager/<component>.yaml: each component is
 * measured with its own heap limits, so a change to one manifest is what the benchmark runs.
 */
export function deployedNodeOptions(component: ComponentName): string {
  const { file, container } = deployedContainer(component);
  const value = container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value;
  if (value === undefined) throw new Error(`${file} sets no NODE_OPTIONS`);
  return value;
}

/**
 * The container's memory request in bytes, as the downward API hands it to the component in
 * LANDLORD_MEMORY_REQUEST (the manifests pass `requests.memory` that way).
 */
export function deployedMemoryRequestBytes(component: ComponentName): number {
  const { file, container } = deployedContainer(component);
  const quantity = container.resources?.requests?.memory;
  // The operator's quantity reader, which the drift check uses for the same notation.
  const bytes = quantityValue(quantity);
  if (bytes === undefined)
    throw new Error(`${file}: requests.memory "${String(quantity)}" is not a quantity`);
  return bytes;
}

/**
 * The manifests are sized for 5,000 tenants and say to raise the operator's old-space cap by ~10 MiB
 * per 1,000 tenants beyond that (config/manager/operator.yaml), sync's not at all up to 20,000 (its
 * heap held 54 MiB there). A run at 10,000 or 20,000 tenants follows that advice, as an installation
 * of that size would, rather than measuring a cap nobody should run.
 */
const SIZED_FOR = 5000;
const MIB_PER_1000 = 10;
/**
 * A PerTenant tenant holds three times the cached objects of a Shared one (its Namespace and the
 * five objects fencing it in), so the manifests say to add ~8 MiB per 1,000 beyond 2,000 of them
 * (docs/deploying.md, "Memory for more tenants"): 7 KB of live heap per tenant since issue 38.
 */
const PER_TENANT_SIZED_FOR = 2000;
const PER_TENANT_MIB_PER_1000 = 8;
/**
 * A PerTenant tenant whose class turns features on (secrets, exposure, databases, several
 * Deployments) holds about twice as much: its Services, route and Secret copies, and a Tenant of
 * two Deployments (17 KB of live heap each at 5,000, against 9 KB plain; docs/deploying.md). 14,
 * not 16: at 20,000 a 448 MiB cap let the process peak at 544 MiB, 412 MiB kept it at 505 with
 * 318 MiB of heap at the end (docs/performance.md, runs ᵡ and ᴵ).
 */
const FEATURED_MIB_PER_1000 = 14;

/**
 * How the manifests size the operator for a run's tenants: Shared, PerTenant, or PerTenant with the
 * class's features on ('featured').
 */
export type Sizing = Tenancy | 'featured';

/** MiB to add to a component's deployed old-space cap for n tenants of that sizing, as the manifests advise. */
function extraMiB(component: ComponentName, n: number, sizing: Sizing): number {
  if (component !== 'operator') return 0;
  if (sizing === 'shared') return Math.max(0, Math.ceil((n - SIZED_FOR) / 1000)) * MIB_PER_1000;
  const perThousand = sizing === 'featured' ? FEATURED_MIB_PER_1000 : PER_TENANT_MIB_PER_1000;
  return Math.max(0, Math.ceil((n - PER_TENANT_SIZED_FOR) / 1000)) * perThousand;
}

/** The deployed NODE_OPTIONS with the old-space cap raised as the manifests advise for n tenants. */
export function nodeOptionsFor(
  component: ComponentName,
  n: number | undefined,
  sizing: Sizing = 'shared',
): string {
  const deployed = deployedNodeOptions(component);
  const extra = n === undefined ? 0 : extraMiB(component, n, sizing);
  if (extra === 0) return deployed;
  return deployed.replace(
    /--max-old-space-size=(\d+)/,
    (_, mib: string) => `--max-old-space-size=${Number(mib) + extra}`,
  );
}

/** The stage of the Dockerfile that becomes the image. */
function imageStage(): Stage {
  const stage = parseDockerfile(readFileSync(join(repoRoot, 'Dockerfile'), 'utf8')).at(-1);
  if (stage === undefined) throw new Error('the Dockerfile has no stage');
  return stage;
}

/**
 * The flags between `node` and the script in the Dockerfile's ENTRYPOINT: V8 flags that
 * NODE_OPTIONS does not accept (Node.js allows only a few there).
 */
export function imageNodeFlags(): string[] {
  const line = instructions(imageStage(), 'ENTRYPOINT').at(-1);
  if (line?.startsWith('[') !== true) throw new Error('the Dockerfile has no ENTRYPOINT in exec form');
  const words = JSON.parse(line) as string[];
  return words.slice(1, -1);
}

/**
 * The environment the image sets (its ENV): variables that change how the process runs, such as
 * MALLOC_ARENA_MAX, so the benchmark's components run with them too.
 */
export function imageEnv(): Record<string, string> {
  return envOf(imageStage());
}
