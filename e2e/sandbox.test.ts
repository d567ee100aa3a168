// `npm start`, as a newcomer runs it: the sandbox starts its own control plane, dynalite, sync and
// operator from the built files, seeds the example rows, and prints the kubectl commands to try.
// Those commands must work as printed, a row edited with `npm run sandbox:row` must reach the
// cluster, the whole-application tenant (two services, its PostgreSQL database, its URL waited
// for on its row) must be what the sandbox says, and Ctrl-C must stop everything it started.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../harness/paths.js';
import { waitUntil } from '../harness/wait.js';

const run = promisify(execFile);
let sandbox: ChildProcess | undefined;
let output = '';

afterAll(() => {
  // Only when a test failed half-way: the last test stops it with SIGINT and checks the exit.
  if (sandbox?.exitCode === null) sandbox.kill('SIGTERM');
});

async function kubectl(kubeconfig: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig } });
  return stdout;
}

async function rowCli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [join(repoRoot, 'dist', 'sandbox', 'row-cli.js'), ...args]);
  return stdout;
}

const condition = (kubeconfig: string, tenant: string, type: string): Promise<string> =>
  kubectl(
    kubeconfig,
    'get',
    'tenant',
    tenant,
    '-o',
    `jsonpath={.status.conditions[?(@.type=="${type}")].status}/{.status.conditions[?(@.type=="${type}")].reason}`,
  );

function printedKubeconfig(): string {
  const match = /export KUBECONFIG=(\S+)/.exec(output);
  expect(match, output).not.toBeNull();
  return match![1]!;
}

describe('npm start (the sandbox)', () => {
  it('comes up seeded and prints the kubectl commands to try', { timeout: 240_000 }, async () => {
    sandbox = spawn(process.execPath, [join(repoRoot, 'dist', 'sandbox', 'main.js')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    sandbox.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    sandbox.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // It exits on its own only when it failed; then its output says why.
    const died = (): void => {
      if (sandbox?.exitCode !== null) throw new Error(`the sandbox exited early:\n${output}`);
    };
    await waitUntil(
      'the sandbox to print its instructions',
      () => Promise.resolve(output.includes('Ctrl-C stops everything')),
      {
        timeoutMs: 200_000,
        intervalMs: 250,
        abortIf: died,
      },
    );
    expect(output).toContain('kubectl get tenants');
    expect(output).toContain('npm run sandbox:row -- list');
  });

  it('shows a Ready tenant and the refused example row, as the printed commands say', async () => {
    const kubeconfig = printedKubeconfig();
    expect(await condition(kubeconfig, 'tenant-1', 'Ready')).toBe('True/Ready');
    await waitUntil(
      'tenant-3 to show its refusal',
      async () => (await condition(kubeconfig, 'tenant-3', 'Synced')) === 'False/InvalidRecord',
      { timeoutMs: 60_000 },
    );
    // Under the default class standard: the seed-format row runs in a namespace of its own.
    expect(output).toContain('kubectl get resourcequota,networkpolicy,rolebinding -n tenant-tenant-1');
    const fenced = await kubectl(
      kubeconfig,
      'get',
      'resourcequota,networkpolicy,rolebinding',
      '-n',
      'tenant-tenant-1',
      '-o',
      'name',
    );
    expect(
      fenced
        .split('\n')
        .filter((line) => line !== '')
        .sort(),
    ).toEqual([
      'networkpolicy.networking.k8s.io/landlord-isolation',
      'resourcequota/landlord-quota',
      expect.stringMatching(/^rolebinding\.rbac\.authorization\.k8s\.io\/landlord-edit-[0-9a-f]{10}$/),
    ]);
    expect(
      await kubectl(kubeconfig, 'get', 'deploy', 'tenant-1-app', '-n', 'tenant-tenant-1', '-o', 'name'),
    ).toContain('tenant-1-app');
    const table = await kubectl(kubeconfig, 'get', 'tenants');
    expect(table.split('\n')[0]).toMatch(/NAME\s+READY\s+REASON\s+REPLICAS\s+SYNCED\s+STATE\s+AGE/);
  });

  it('exposes the shop tenant: prints its URL and its `kubectl get ingress -A` line, as the cluster says', async () => {
    const kubeconfig = printedKubeconfig();
    expect(output).toContain('shop (class web) is exposed at http://shop.apps.example.com');
    expect(output).toMatch(/NAMESPACE\s+NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE/);
    expect(output).toMatch(/web-shop\s+landlord-app\s+nginx\s+shop\.apps\.example\.com\s+80\s/);
    const wide = await kubectl(kubeconfig, 'get', 'tenant', 'shop', '-o', 'wide');
    expect(wide).toContain('http://shop.apps.example.com');
  });

  it(
    'tells a signup service its URL on the row: npm run sandbox:row -- signup',
    { timeout: 200_000 },
    async () => {
      const printed = await rowCli('signup', 'shop-2');
      expect(printed).toContain('shop-2 is ready at http://shop-2.apps.example.com');
    },
  );

  it(
    'runs crm, a whole application: two services from one row, its own PostgreSQL database, its URL on its row (npm run sandbox:wait-url)',
    { timeout: 200_000 },
    async () => {
      const kubeconfig = printedKubeconfig();
      expect(output).toContain('npm run sandbox:wait-url -- crm');
      expect(output).toContain('kubectl get deploy,svc -n suite-crm');
      expect(output).toMatch(
        /PostgreSQL at 127\.0\.0\.1:\d+: crm \(class suite\) gets a database of its own/,
      );
      // As printed: the signup service's wait, on the row only.
      const { stdout } = await run('npm', ['run', '--silent', 'sandbox:wait-url', '--', 'crm'], {
        cwd: repoRoot,
      });
      expect(stdout).toContain('crm is ready at http://crm.suite.example.com');
      const names = async (kind: string): Promise<string[]> =>
        (
          await kubectl(
            kubeconfig,
            'get',
            kind,
            '-n',
            'suite-crm',
            '-o',
            'jsonpath={.items[*].metadata.name}',
          )
        )
          .split(' ')
          .sort();
      expect(await names('deploy')).toEqual(['api', 'web']);
      expect(await names('svc')).toEqual(['api', 'landlord-app', 'web']);
      const workloads = await kubectl(
        kubeconfig,
        'get',
        'tenant',
        'crm',
        '-o',
        'jsonpath={.status.workloads[*].name}',
      );
      expect(workloads).toBe('suite-crm/web suite-crm/api');
      // The database's Secret works: connect with exactly its values, as the api's pods would.
      const secret = JSON.parse(
        await kubectl(kubeconfig, 'get', 'secret', 'db-main', '-n', 'suite-crm', '-o', 'json'),
      ) as { data: Record<string, string> };
      const value = (key: string): string => Buffer.from(secret.data[key] ?? '', 'base64').toString('utf8');
      expect(Object.keys(secret.data).sort()).toEqual([
        'database',
        'host',
        'password',
        'port',
        'url',
        'user',
      ]);
      const client = new pg.Client({ connectionString: value('url'), connectionTimeoutMillis: 5_000 });
      await client.connect();
      try {
        const { rows } = await client.query<{ db: string; who: string }>(
          'SELECT current_database() AS db, current_user AS who',
        );
        expect(rows[0]).toEqual({ db: value('database'), who: value('user') });
      } finally {
        await client.end();
      }
    },
  );

  it('lands a new row of the pooled class in a running member, and prints how long it took', async () => {
    const kubeconfig = printedKubeconfig();
    const printed =
      /signup-1 \(class quick, a warm pool of 2\) was Ready \d+\.\ds after its row was written, in the running member (quick-[a-z0-9]+);/.exec(
        output,
      );
    expect(printed, output).not.toBeNull();
    const namespace = printed![1]!;
    expect(await kubectl(kubeconfig, 'get', 'tenant', 'signup-1', '-o', 'jsonpath={.status.namespace}')).toBe(
      namespace,
    );
    const claimed = await kubectl(
      kubeconfig,
      'get',
      'events',
      '-A',
      '--field-selector',
      'involvedObject.name=signup-1,reason=PoolClaimed',
      '-o',
      'name',
    );
    expect(claimed.trim()).not.toBe('');
    // As printed: the WARM column, and the pool refilled to 2 without the claimed namespace.
    expect(output).toContain('kubectl get ns -l landlord.dev/pool=quick');
    const members = await waitUntil(
      'the pool of quick to be back to 2',
      async () => {
        const names = (await kubectl(kubeconfig, 'get', 'ns', '-l', 'landlord.dev/pool=quick', '-o', 'name'))
          .split('\n')
          .filter((line) => line !== '');
        const warm = await kubectl(
          kubeconfig,
          'get',
          'tenantclass',
          'quick',
          '-o',
          'jsonpath={.status.warm}',
        );
        return names.length === 2 && warm === '2' ? names : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(members).not.toContain(`namespace/${namespace}`);
    expect((await kubectl(kubeconfig, 'get', 'tenantclass')).split('\n')[0]).toContain('WARM');
  });

  it('takes row edits from npm run sandbox:row', async () => {
    const kubeconfig = printedKubeconfig();
    expect(await rowCli('list')).toContain('"name":"tenant-2"');
    expect(await rowCli('set-deleted', 'tenant-2')).toContain('marked tenant-2 deleted');
    const names = (): Promise<string> =>
      kubectl(kubeconfig, 'get', 'tenants', '-o', 'jsonpath={.items[*].metadata.name}');
    await waitUntil('tenant-2 to be deleted', async () => !(await names()).split(' ').includes('tenant-2'), {
      timeoutMs: 60_000,
    });
  });

  it('suspends and resumes a tenant from npm run sandbox:row set-state', async () => {
    const kubeconfig = printedKubeconfig();
    expect(output).toContain('set-state tenant-1 suspended');
    const ready = (want: string) => async () => (await condition(kubeconfig, 'tenant-1', 'Ready')) === want;
    expect(await rowCli('set-state', 'tenant-1', 'suspended')).toContain('set tenant-1 to state suspended');
    await waitUntil('tenant-1 to be suspended', ready('False/Suspended'), { timeoutMs: 60_000 });
    await rowCli('set-state', 'tenant-1', 'active');
    await waitUntil('tenant-1 to be Ready again', ready('True/Ready'), { timeoutMs: 60_000 });
  });

  it('plans nothing once the edits are carried out: npm run sandbox:plan', async () => {
    expect(output).toContain('npm run sandbox:plan');
    const plan = (): Promise<{ code: number; stdout: string }> =>
      run(process.execPath, [join(repoRoot, 'dist', 'sandbox', 'plan.js')]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (err: { code: number; stdout: string }) => err,
      );
    const settled = await waitUntil(
      'the sandbox plan to find nothing to write',
      async () => {
        const result = await plan();
        return result.code === 0 ? result : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(settled.stdout).toContain('x tenant-3 (refused, already reported)');
    expect(settled.stdout).toMatch(
      /^Plan: 0 to create, 0 to update, 0 to delete, 0 held back, 1 refused, \d+ unchanged, 0 not owned\. Nothing would be written\.$/m,
    );
  });

  it("purges a tenant's data after the sandbox's delay: npm run sandbox:row set-state purged", async () => {
    const kubeconfig = printedKubeconfig();
    expect(output).toContain('set-state tenant-1 purged');
    await rowCli('set-state', 'tenant-1', 'purged');
    const purged = async (): Promise<boolean> =>
      (await condition(kubeconfig, 'tenant-1', 'Purged')) === 'True/Purged';
    await waitUntil('tenant-1 to be purged', purged, { timeoutMs: 120_000 });
    const deleted = await kubectl(
      kubeconfig,
      'get',
      'tenant',
      'tenant-1',
      '-o',
      'jsonpath={.status.purge.tables[0].deleted}',
    );
    expect(deleted).toBe('5');
  });

  it('stops everything on Ctrl-C', { timeout: 60_000 }, async () => {
    const exited = new Promise<number | null>((resolve) => sandbox!.once('exit', (code) => resolve(code)));
    sandbox!.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('stopped.');
  });
});
