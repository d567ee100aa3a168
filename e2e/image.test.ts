// The image built for real (`npm run image`: buildah, from the Dockerfile as it stands): its
// entrypoint answers through `buildah run`, it holds the runtime and nothing to build or test
// with, and sync and the operator run from it, as its user, on a read-only root, against this
// file's control plane and moto: a seed row becomes a Ready Tenant. A tree that has no image yet
// is built first (minutes; `npm run image` ahead of the tests, as .ci/run does, keeps this short).
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION } from '../api/tenant.js';
import { waitUntil } from '../harness/wait.js';
import {
  buildahRun,
  closeImage,
  entrypointWith,
  imageEnv,
  imageUserIds,
  openImage,
  readOnlyCommand,
  runReadOnly,
  type OpenedImage,
} from './support/built-image.js';
import { repoFile } from './support/deploy.js';
import { clients, e2eEnv, uniqueName } from './support/env.js';
import { writeInlineKubeconfig } from './support/image.js';
import { componentEnv, startLandlord } from './support/landlord.js';
import {
  createTable,
  deleteSyncedTenants,
  putRow,
  readTenant,
  syncedCondition,
  verbatimRow,
} from './support/sync.js';

const packageJson = JSON.parse(repoFile('package.json')) as { version: string };
/** The lockfile marks every package that only development needs (the compiler among them). */
const lockfile = JSON.parse(repoFile('package-lock.json')) as {
  packages: Record<string, { dev?: boolean }>;
};

/** What the final stage copies into /app, and the built directories among them. */
const APP_ENTRIES = ['dist', 'node_modules', 'package.json'];
const RUNTIME_DIRS = ['api', 'cli', 'operator', 'purger', 'runtime', 'sync', 'util'];
/** Commands that would build or install code, looked up on the image's PATH. */
const BUILD_TOOLS = [
  'npm',
  'npx',
  'corepack',
  'yarn',
  'yarnpkg',
  'gcc',
  'cc',
  'c++',
  'g++',
  'make',
  'tsc',
  'node-gyp',
];

let opened: OpenedImage;
/** The test's files for the container, mounted read-only at /mnt: kubeconfig and AWS credentials. */
let shared: string;

beforeAll(async () => {
  opened = await openImage((line) => console.error(line));
  shared = await mkdtemp(join(tmpdir(), 'landlord-image-mnt-'));
  await chmod(shared, 0o755);
  await writeInlineKubeconfig(join(shared, 'kubeconfig'));
  const env = e2eEnv();
  const credentials = `[default]\naws_access_key_id = ${env.AWS_ACCESS_KEY_ID}\naws_secret_access_key = ${env.AWS_SECRET_ACCESS_KEY}\n`;
  await writeFile(join(shared, 'aws-credentials'), credentials, { mode: 0o644 });
}, 30 * 60_000);

afterAll(async () => {
  if (opened !== undefined) await closeImage(opened);
  if (shared !== undefined) await rm(shared, { recursive: true, force: true });
});

describe('the image as buildah runs it', () => {
  it('answers --version and --help through its entrypoint', async () => {
    expect(await buildahRun(opened, entrypointWith(opened, ['--version']))).toEqual({
      code: 0,
      stdout: `${packageJson.version}\n`,
      stderr: '',
    });
    const help = await buildahRun(opened, entrypointWith(opened, ['--help']));
    expect(help).toMatchObject({ code: 0, stderr: '' });
    for (const command of ['operator', 'sync', 'purger'])
      expect(help.stdout).toMatch(new RegExp(`\\b${command}\\b`));
  });

  it('runs as a non-root numeric user', async () => {
    const { uid, gid } = imageUserIds(opened);
    expect(uid).toBeGreaterThan(0);
    const id = await buildahRun(opened, ['id', '-u']);
    expect(id).toMatchObject({ code: 0, stdout: `${uid}\n` });
    expect(await buildahRun(opened, ['id', '-g'])).toMatchObject({ code: 0, stdout: `${gid}\n` });
  });

  it('holds no compiler, package manager, tests, harness or benchmarks', async () => {
    const lookUp = `for tool in ${BUILD_TOOLS.join(' ')}; do command -v "$tool"; done; true`;
    const found = await buildahRun(opened, ['sh', '-c', lookUp]);
    expect(found).toMatchObject({ code: 0, stdout: '' });
    // The same look-up finds what is there.
    expect((await buildahRun(opened, ['sh', '-c', 'command -v node'])).stdout).toBe('/usr/local/bin/node\n');
    const app = join(opened.root, opened.config.WorkingDir ?? '/');
    expect((await readdir(app)).sort()).toEqual(APP_ENTRIES);
    expect((await readdir(join(app, 'dist'))).sort()).toEqual(RUNTIME_DIRS);
    const built = await readdir(join(app, 'dist'), { recursive: true });
    expect(built.filter((file) => /\.test\.js$/.test(file))).toEqual([]);
    const devOnly = Object.entries(lockfile.packages)
      .filter(([path, entry]) => path !== '' && entry.dev === true)
      .map(([path]) => path);
    expect(devOnly).toContain('node_modules/typescript');
    expect(devOnly.filter((path) => existsSync(join(app, path)))).toEqual([]);
    expect(existsSync(join(opened.root, 'usr/local/lib/node_modules/npm'))).toBe(false);
  });
});

describe('sync and the operator from the image, on a read-only root', () => {
  const table = uniqueName('image');
  const name = uniqueName('tenant');

  /** What the components get inside: the image's ENV, the test's settings, files at /mnt. */
  const insideEnv = (extra: Record<string, string>): Record<string, string> => {
    const env = componentEnv(extra);
    delete env.AWS_ACCESS_KEY_ID;
    delete env.AWS_SECRET_ACCESS_KEY;
    return {
      ...env,
      ...imageEnv(opened),
      HOME: '/nonexistent',
      KUBECONFIG: '/mnt/kubeconfig',
      AWS_SHARED_CREDENTIALS_FILE: '/mnt/aws-credentials',
    };
  };

  afterAll(async () => {
    await deleteSyncedTenants(table);
  });

  it('writes nowhere, not even where its user may write', async () => {
    const probe = await runReadOnly(opened, shared, ['touch', '/tmp/probe']);
    expect(probe.code).not.toBe(0);
    expect(probe.stderr).toMatch(/Read-only file system/);
  });

  it('turns a seed row into a Ready Tenant', async () => {
    await createTable(table);
    const command = readOnlyCommand(opened, shared, opened.config.Entrypoint ?? []);
    const sync = startLandlord(
      'sync',
      insideEnv({ DYNAMODB_TABLE: table, POD_NAMESPACE: 'default', LANDLORD_SYNC_RESYNC_SECONDS: '5' }),
      command,
    );
    const operator = startLandlord('operator', insideEnv({}), command);
    await Promise.all([sync.ready(), operator.ready()]);
    await putRow(table, verbatimRow(name));
    const tenant = await waitUntil(
      `Tenant ${name} Ready and Synced`,
      async () => {
        const t = await readTenant(name);
        const ready = t?.status?.conditions?.find((c) => c.type === CONDITION.ready);
        return ready?.status === 'True' && syncedCondition(t)?.status === 'True' ? t : undefined;
      },
      { timeoutMs: 90_000 },
    );
    expect(tenant.metadata?.name).toBe(name);
    const deployment = await clients().apps.readNamespacedDeployment({
      name: `${name}-app`,
      namespace: 'default',
    });
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('nginx:latest');
    expect(await sync.stop()).toBe(0);
    expect(await operator.stop()).toBe(0);
    for (const component of [sync, operator])
      expect(component.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
