// The sandbox's pooled class (docs/warm-pool.md): `quick` keeps 2 warm members running an app that
// takes 10 s to start (kwok's delay stage holds its pods Pending that long). Once both are Ready,
// the sandbox writes one new row of the class and prints how long it took to be Ready: the row
// lands in a running member instead of waiting for its app to start.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { KWOK_READY_DELAY_ANNOTATION } from '../harness/components.js';
import { waitUntil } from '../harness/wait.js';
import type { Row } from './rows.js';

export const POOL_CLASS = 'quick';
export const POOL_SIZE = 2;
/** The row the sandbox writes once the pool is full, to time a signup. */
export const SIGNUP_TENANT = 'signup-1';
const START_SECONDS = 10;

const run = promisify(execFile);

/**
 * The app the members run and the rows of the class ask for: the same name and pod template, so a
 * claim keeps the running pods. The annotation is the simulated start time.
 */
function app(): Record<string, unknown> {
  const labels = { app: 'quick' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'app', namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, annotations: { [KWOK_READY_DELAY_ANNOTATION]: `${START_SECONDS}s` } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    },
  };
}

const CLASS = {
  apiVersion: 'landlord.dev/v1beta1',
  kind: 'TenantClass',
  metadata: { name: POOL_CLASS },
  spec: {
    namespace: { mode: 'PerTenant', nameTemplate: 'quick-{id}' },
    rbac: [{ group: '{name}-devs', clusterRole: 'edit' }],
    warmPool: { size: POOL_SIZE, deployment: app(), maxUnavailable: 1 },
  },
};

export function installPoolClass(kubeconfig: string): void {
  const applied = spawnSync('kubectl', ['apply', '--server-side', '-f', '-'], {
    input: JSON.stringify(CLASS),
    env: { ...process.env, KUBECONFIG: kubeconfig },
    encoding: 'utf8',
  });
  if (applied.status !== 0) throw new Error(`installing TenantClass ${POOL_CLASS}: ${applied.stderr}`);
}

/** A row of the pooled class in the format users write (spec as JSON text). */
export function pooledRow(name: string): Row {
  return {
    name: { S: name },
    class: { S: POOL_CLASS },
    spec: { S: JSON.stringify(app()) },
    customizations: { S: '[]' },
    deleted: { BOOL: false },
  };
}

export interface Signup {
  seconds: number;
  namespace: string;
}

/**
 * Waits for the pool to be full, writes one row of the class with `put`, and returns how long it
 * took from the write to the Tenant's Ready, and the namespace it got.
 */
export async function timeSignup(kubeconfig: string, put: (row: Row) => Promise<void>): Promise<Signup> {
  const kubectl = async (...args: string[]): Promise<string> =>
    (await run('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8' }))
      .stdout;
  await waitUntil(
    `${POOL_SIZE} warm members of class ${POOL_CLASS}`,
    async () =>
      (await kubectl('get', 'tenantclass', POOL_CLASS, '-o', 'jsonpath={.status.warm}')) === `${POOL_SIZE}`,
    { timeoutMs: 120_000, intervalMs: 250 },
  );
  const written = Date.now();
  await put(pooledRow(SIGNUP_TENANT));
  const ready = `jsonpath={.status.conditions[?(@.type=="Ready")].status} {.status.namespace}`;
  const namespace = await waitUntil(
    `${SIGNUP_TENANT} to be Ready`,
    async () => {
      const [status, ns] = (await kubectl('get', 'tenant', SIGNUP_TENANT, '-o', ready).catch(() => '')).split(
        ' ',
      );
      return status === 'True' ? ns : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  return { seconds: (Date.now() - written) / 1000, namespace: namespace ?? '' };
}

/** What the sandbox prints about the signup. */
export function signupLine({ seconds, namespace }: Signup): string {
  return (
    `  ${SIGNUP_TENANT} (class ${POOL_CLASS}, a warm pool of ${POOL_SIZE}) was Ready ${seconds.toFixed(1)}s ` +
    `after its row was written, in the running member ${namespace}; its app takes ${START_SECONDS}s to start cold`
  );
}
