// Deploying landlord: the image's Dockerfile, read as text and by assembling exactly the files its
// final stage copies and running the CLI from them as the image's user: fast checks of its shape.
// e2e/image.test.ts builds the image itself with buildah and runs it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApi } from '../runtime/kube/api.js';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';
import { repoFile } from './support/deploy.js';
import { copies, envOf, instructions, workdir } from '../harness/dockerfile.js';
import {
  assembleImage,
  entrypoint,
  final,
  imageIdentity,
  imageUser,
  installsProductionOnly,
  parseLogLine,
  runImage,
  scratchFilesOf,
  stageNamed,
  stages,
  startImage,
  writeImageKubeconfig,
  type AssembledImage,
} from './support/image.js';
import { clients, kubeConfig, uniqueName } from './support/env.js';

const run = promisify(execFile);
const { core } = clients();

const packageJson = JSON.parse(repoFile('package.json')) as { version: string };

/** A package manager invoked as a command (removing npm's files is not running it). */
const PACKAGE_MANAGER = /(^|&&|;|\|)\s*(npm|npx|yarn|pnpm|corepack)\s/;

/** The Node.js release the tests run on: scripts/node24 pins it. */
function testedNodeVersion(): string {
  const match = /^version="([^"]+)"/m.exec(repoFile('scripts/node24'));
  if (match?.[1] === undefined) throw new Error('scripts/node24 does not pin a version');
  return match[1];
}

describe('the Dockerfile', () => {
  it('builds on and runs Node.js 24, the very release the tests run on', () => {
    const version = testedNodeVersion();
    expect(version.split('.')[0]).toBe('24');
    for (const stage of stages) expect(stage.from).toBe(`node:${version}-bookworm-slim`);
  });

  it('runs as a non-root numeric user', () => {
    expect(imageUser()).toMatch(/^\d+(:\d+)?$/);
    expect(Number(imageUser().split(':')[0])).toBeGreaterThan(0);
  });

  it('holds production dependencies only, and runs no package manager in the final stage', () => {
    const nodeModules = copies(final).filter((c) => c.sources.some((s) => basename(s) === 'node_modules'));
    expect(nodeModules).toHaveLength(1);
    const source = stageNamed(nodeModules[0]!.from);
    expect(installsProductionOnly(source)).toBe(true);
    expect(instructions(source!, 'RUN').filter((r) => /\bnpm (install|i)\b/.test(r))).toEqual([]);
    expect(instructions(final, 'RUN').filter((r) => PACKAGE_MANAGER.test(r))).toEqual([]);
    expect(envOf(final).NODE_ENV).toBe('production');
  });

  it('starts the CLI, so the command picks the component', () => {
    expect(entrypoint()[0]).toBe('node');
    expect(entrypoint().at(-1)).toBe('dist/cli/main.js');
  });

  it('runs node only with V8 flags that docs/performance.md measured', () => {
    for (const flag of entrypoint().slice(1, -1))
      expect(repoFile('docs/performance.md')).toContain(`\`${flag}\``);
  });

  it('sets only environment that docs/performance.md measured, besides NODE_ENV', () => {
    for (const [key, value] of Object.entries(envOf(final)).filter(([k]) => k !== 'NODE_ENV'))
      expect(repoFile('docs/performance.md')).toContain(`\`${key}=${value}\``);
  });

  it('compiles every directory that tsconfig.build.json includes, and .dockerignore lets each in', () => {
    const build = stageNamed('build')!;
    const included = (JSON.parse(repoFile('tsconfig.build.json')) as { include: string[] }).include;
    const copied = copies(build).flatMap((c) => c.sources);
    const allowed = repoFile('.dockerignore')
      .split('\n')
      .filter((line) => line.startsWith('!'))
      .map((line) => line.slice(1));
    for (const dir of included) {
      expect(copied).toContain(dir);
      expect(allowed).toContain(dir);
    }
  });

  it('copies only runtime output, every piece of which `npm run build` produces', () => {
    const fromBuild = copies(final).filter((c) => c.from === 'build');
    const paths = fromBuild.flatMap((c) => c.sources.map((s) => relative(workdir(stageNamed('build')!), s)));
    expect(paths.sort()).toEqual([
      'dist/api',
      'dist/cli',
      'dist/operator',
      'dist/purger',
      'dist/runtime',
      'dist/sync',
      'dist/util',
    ]);
    for (const path of paths)
      expect(existsSync(join(repoRoot, path)), `${path} after npm run build`).toBe(true);
    expect(existsSync(join(repoRoot, entrypoint().at(-1)!))).toBe(true);
  });
});

/** A Lease held by someone else for an hour, so an operator started with this namespace stays standby. */
async function leaseHeldElsewhere(namespace: string): Promise<void> {
  const now = new Date().toISOString().replace('Z', '000Z');
  await new KubeApi(kubeConfig()).request({
    method: 'POST',
    path: `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
    body: {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'landlord-operator', namespace },
      spec: {
        holderIdentity: 'another-replica',
        leaseDurationSeconds: 3600,
        acquireTime: now,
        renewTime: now,
      },
    },
  });
}

describe('the files the image holds, run as the image runs them', () => {
  let image: AssembledImage;
  let kubeconfig: string;
  const leaseNamespace = uniqueName('image');

  beforeAll(async () => {
    image = await assembleImage();
    kubeconfig = await writeImageKubeconfig(image);
    // Nothing in the image is writable by its user; as a non-root tester, by anyone.
    await run('chmod', ['-R', 'a-w', image.root]);
    await core.createNamespace({ body: { metadata: { name: leaseNamespace } } });
    await leaseHeldElsewhere(leaseNamespace);
  });

  afterAll(async () => {
    if (image === undefined) return;
    await run('chmod', ['-R', 'u+w', image.root]);
    await rm(image.root, { recursive: true, force: true });
    await core.deleteNamespace({ name: leaseNamespace });
  });

  it('--help and --version work from them alone', async () => {
    const help = await runImage(image, ['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/operator/);
    expect(help.stdout).toMatch(/sync/);
    expect(help.stdout).toMatch(/purger/);
    expect(await runImage(image, ['--version'])).toMatchObject({
      code: 0,
      stdout: `${packageJson.version}\n`,
    });
  });

  it('`landlord crd` prints the CRDs that config/crd installs', async () => {
    const crd = await runImage(image, ['crd']);
    const files = ['crds/tenants.landlord.dev.yaml', 'crds/tenantclasses.landlord.dev.yaml'];
    expect(crd).toMatchObject({ code: 0, stdout: files.map((f) => repoFile(f)).join('---\n') });
  });

  it('refuses a missing setting with one line naming it', async () => {
    const sync = await runImage(image, ['sync']);
    expect(sync.code).toBe(2);
    expect(sync.stderr.trim().split('\n')).toEqual([expect.stringMatching(/DYNAMODB_TABLE is required/)]);
  });

  it('the operator starts against the cluster, stands by, and exits 0 on SIGTERM, writing nothing to disk', async () => {
    const child = startImage(image, ['operator'], {
      KUBECONFIG: kubeconfig,
      POD_NAMESPACE: leaseNamespace,
      LANDLORD_IDENTITY: 'image-test',
      LANDLORD_HTTP_PORT: '0',
      LANDLORD_LEADER_ELECTION: 'true',
      LANDLORD_INSTALL_CRD: 'false',
    });
    const lines: Record<string, unknown>[] = [];
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => lines.push(parseLogLine(line)));
    }
    const port = await waitUntil(
      'the operator to say which port it serves',
      async () => Promise.resolve(lines.find((l) => l.msg === 'starting')?.httpPort as number | undefined),
      { timeoutMs: 30_000 },
    );
    const readiness = await waitUntil(
      'the operator to be ready',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/readyz`);
        return res.ok ? res.text() : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(readiness.trim()).toBe('standby');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(await scratchFilesOf(imageIdentity().uid)).toEqual([]);
  });
});
