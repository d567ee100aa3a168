// Runs a landlord component as a real child process, as a pod would: its JSON log lines are
// captured (to a file and in memory, so tests can assert what a user would read), /readyz and
// /metrics are reachable, and it can be stopped gracefully or killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../harness/paths.js';
import { waitUntil } from '../../harness/wait.js';
import { e2eEnv, uniqueName } from './env.js';

export type LogLine = Record<string, unknown> & { msg?: string; level?: string; tenant?: string };

export interface LandlordProcess {
  readonly identity: string;
  readonly logs: LogLine[];
  readonly exited: Promise<number | string>;
  httpPort(): Promise<number>;
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  ready(timeoutMs?: number): Promise<void>;
  /** Throws with its last log lines if it has exited: an `abortIf` for waits on its work. */
  readonly assertRunning: () => void;
  metrics(): Promise<string>;
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | string>;
}

const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

/**
 * Kills every component this file started and still running, and waits for them to exit. Run
 * before the file's control plane goes to the next file (slot-release.ts): a component left
 * running would act on that file's Tenants (its operator applying them, announcing them).
 */
export async function killRunning(): Promise<void> {
  const exits = [...running].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(exits);
}

/** The environment every component gets in tests: the cluster, DynamoDB, and quick, quiet defaults. */
export function componentEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = e2eEnv();
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    KUBECONFIG: env.KUBECONFIG!,
    DYNAMODB_ENDPOINT: env.DYNAMODB_ENDPOINT!,
    AWS_REGION: env.AWS_REGION!,
    AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID!,
    AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY!,
    POD_NAMESPACE: 'landlord-system',
    LANDLORD_HTTP_PORT: '0',
    LANDLORD_LEADER_ELECTION: 'false',
    LANDLORD_INSTALL_CRD: 'true',
    LANDLORD_LOG_LEVEL: 'debug',
    // Most files test under the built-in class, with no TenantClass installed; without this their
    // Tenants would wait (NoDefaultClass). escape-class-choice.test.ts turns it off to test that.
    LANDLORD_OPERATOR_BUILT_IN_CLASS: 'true',
    ...extra,
  };
}

/** How a component is started: the command before the component's name (the built CLI by default). */
const BUILT_CLI: readonly string[] = [process.execPath, join(repoRoot, 'dist', 'cli', 'main.js')];

export function startLandlord(
  component: 'operator' | 'sync' | 'purger',
  env: Record<string, string>,
  command: readonly string[] = BUILT_CLI,
): LandlordProcess {
  const identity = env.LANDLORD_IDENTITY ?? uniqueName(component);
  const [file = '', ...args] = command;
  const child = spawn(file, [...args, component], {
    env: { ...env, LANDLORD_IDENTITY: identity },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const logFile = createWriteStream(join(e2eEnv().LANDLORD_E2E_RUN_DIR!, 'logs', `${identity}.log`));
  const logs: LogLine[] = [];
  const capture = (stream: NodeJS.ReadableStream): void => {
    createInterface({ input: stream }).on('line', (text) => {
      logFile.write(`${text}\n`);
      try {
        logs.push(JSON.parse(text) as LogLine);
      } catch {
        logs.push({ msg: text, level: 'raw' });
      }
    });
  };
  capture(child.stdout);
  capture(child.stderr);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  let alive = true;
  void exited.then(() => (alive = false));
  const waitForLog = (predicate: (line: LogLine) => boolean, timeoutMs = 60_000): Promise<LogLine> =>
    waitUntil(`${identity} to log a matching line`, () => Promise.resolve(logs.find(predicate)), {
      timeoutMs,
    });
  const httpPort = async (): Promise<number> =>
    Number((await waitForLog((l) => l.msg === 'starting' && typeof l.httpPort === 'number')).httpPort);
  const assertRunning = (): void => {
    if (alive) return;
    const last = logs.slice(-10).map((l) => JSON.stringify(l));
    throw new Error(`${identity} exited:\n${last.join('\n')}`);
  };
  const fetchText = async (path: string): Promise<Answer> => getOnNewConnection(await httpPort(), path);
  return {
    identity,
    logs,
    exited,
    httpPort,
    waitForLog,
    ready: async (timeoutMs = 120_000) => {
      await waitUntil(`${identity} to be ready`, async () => alive && (await fetchText('/readyz')).ok, {
        timeoutMs,
        abortIf: assertRunning,
      });
    },
    assertRunning,
    metrics: async () => (await fetchText('/metrics')).text,
    kill: (signal = 'SIGKILL') => {
      if (alive) child.kill(signal);
    },
    stop: async () => {
      if (alive) child.kill('SIGTERM');
      return exited;
    },
  };
}

interface Answer {
  ok: boolean;
  text: string;
}

/**
 * One GET to a component, on a TCP connection of its own that closes after the answer. A test may
 * freeze the component's event loop for seconds (memory.test.ts takes heap snapshots). A request
 * sent meanwhile on a kept-alive connection is reset when the loop resumes: Node runs the timers
 * first, the server's keep-alive timeout (5 s since its last answer) has expired, and it destroys
 * the socket with the request unread. A new connection has no such timer: the kernel accepts it
 * and holds the request until the loop reads it, however long the freeze.
 */
function getOnNewConnection(port: number, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      const status = response.statusCode ?? 0;
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ ok: status >= 200 && status < 300, text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The value of one Prometheus sample (summed over series matching every label given). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

const WRITE_VERBS = ['apply', 'create', 'update', 'patch', 'delete'] as const;

/** The operator's own resources and Events: what a test of "no write" counts. */
export const OPERATOR_WRITE_RESOURCES = ['tenants', 'tenants/status', 'deployments', 'configmaps', 'events'];

/** Every write request a component made, to any resource (creates, applies, patches, deletes). */
export async function allWrites(component: LandlordProcess): Promise<number> {
  const text = await component.metrics();
  return WRITE_VERBS.map((verb) => metricValue(text, 'landlord_api_requests_total', { verb })).reduce(
    (a, b) => a + b,
    0,
  );
}

/**
 * A component's write requests to one resource, by verb (only the verbs it used). The operator
 * creates a child by POST (create), changes it by apply, and before its first change hands the
 * create's fields to its Apply entry by one JSON patch (patch): runtime/kube/field-ownership.ts.
 */
export async function writesByVerb(
  component: LandlordProcess,
  resource: string,
): Promise<Record<string, number>> {
  const text = await component.metrics();
  const counts = WRITE_VERBS.map(
    (verb) => [verb, metricValue(text, 'landlord_api_requests_total', { verb, resource })] as const,
  );
  return Object.fromEntries(counts.filter(([, n]) => n > 0));
}

/** What each verb's count grew by between two readings of writesByVerb (only those that grew). */
export function verbDelta(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const grown = Object.entries(after).map(([verb, n]) => [verb, n - (before[verb] ?? 0)] as const);
  return Object.fromEntries(grown.filter(([, n]) => n !== 0));
}

/** Write requests a component made to these resources, from its own request metrics. */
export async function writeRequests(
  component: LandlordProcess,
  resources: readonly string[],
): Promise<number> {
  const text = await component.metrics();
  return WRITE_VERBS.flatMap((verb) =>
    resources.map((resource) => metricValue(text, 'landlord_api_requests_total', { verb, resource })),
  ).reduce((a, b) => a + b, 0);
}

/** Write requests a component made, by resource, from its own request metrics. */
export async function writesByResource(
  component: LandlordProcess,
  resources: readonly string[],
): Promise<Record<string, number>> {
  const text = await component.metrics();
  const count = (resource: string): number =>
    WRITE_VERBS.map((verb) => metricValue(text, 'landlord_api_requests_total', { verb, resource })).reduce(
      (a, b) => a + b,
      0,
    );
  return Object.fromEntries(resources.map((resource) => [resource, count(resource)]));
}

/**
 * Once `component`'s writes to `resources` hold still (the same over two reads 3 s apart: the last
 * reconciles may still write status and Events): how many it made since `before`, by resource.
 */
export async function settledWrites(
  component: LandlordProcess,
  resources: readonly string[],
  before: Record<string, number>,
): Promise<Record<string, number>> {
  let last = '';
  const after = await waitUntil(
    "the operator's writes to hold still",
    async () => {
      const now = await writesByResource(component, resources);
      const same = JSON.stringify(now) === last;
      last = JSON.stringify(now);
      return same ? now : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 3_000 },
  );
  return Object.fromEntries(Object.keys(after).map((r) => [r, after[r]! - (before[r] ?? 0)]));
}
