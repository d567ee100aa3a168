// What a person starting landlord reads when the setup is wrong: one error line naming the setting
// and the fix, no stack trace, and exit code 2. (A missing CRD is in crd-install.test.ts, a missing
// table in sync-table-problems.test.ts, a missing setting in deploy-image.test.ts.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTable } from './support/sync.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import { uniqueName } from './support/env.js';

let dir: string;
const holders: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'landlord-startup-'));
});

afterAll(async () => {
  await Promise.all(holders.map((s) => new Promise((resolve) => s.close(resolve))));
  await rm(dir, { recursive: true, force: true });
});

/** A loopback port held by this test: nothing of landlord's can listen on it. */
async function heldPort(): Promise<number> {
  const server = createServer((socket) => socket.destroy());
  holders.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** The error lines of a component that exited, and its exit code. */
async function outcome(p: LandlordProcess): Promise<{ code: number | string; errors: string[] }> {
  const code = await p.exited;
  const errors = p.logs.filter((l) => l.level === 'error').map((l) => String(l.msg));
  const stacks = p.logs.filter((l) => JSON.stringify(l).includes('    at '));
  expect(stacks, 'no stack trace in the log').toEqual([]);
  return { code, errors };
}

describe('start-up errors', () => {
  it('a taken LANDLORD_HTTP_PORT: one line naming it', async () => {
    const port = await heldPort();
    const operator = startLandlord('operator', componentEnv({ LANDLORD_HTTP_PORT: String(port) }));
    expect(await outcome(operator)).toEqual({
      code: 2,
      errors: [
        `LANDLORD_HTTP_PORT ${port}: the port is in use by another process; set LANDLORD_HTTP_PORT to a free port (0 picks one)`,
      ],
    });
  });

  it('a purger without LANDLORD_PURGER_TENANT_TABLES: one line naming it, before it starts', async () => {
    const env = componentEnv();
    delete env.LANDLORD_PURGER_TENANT_TABLES;
    const purger = startLandlord('purger', env);
    // The setting is read before anything starts: stderr's one line, no JSON log, no component.
    await purger.waitForLog((l) => String(l.msg).includes('LANDLORD_PURGER_TENANT_TABLES'));
    expect(await purger.exited).toBe(2);
    expect(purger.logs).toEqual([
      {
        level: 'raw',
        msg: expect.stringMatching(
          /^landlord: LANDLORD_PURGER_TENANT_TABLES is required: Comma-separated tenant tables .+$/,
        ) as unknown,
      },
    ]);
  });

  it('an API server that cannot be reached: one line naming it and KUBECONFIG', async () => {
    // A loopback port that closes every connection: the kubeconfig points at no API server.
    const server = `https://127.0.0.1:${await heldPort()}`;
    const kubeconfig = join(dir, 'nowhere.kubeconfig');
    await writeFile(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'nowhere', cluster: { server, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'nobody', user: { token: 'not-a-token' } }],
        contexts: [{ name: 'nowhere', context: { cluster: 'nowhere', user: 'nobody' } }],
        'current-context': 'nowhere',
      }),
    );
    const operator = startLandlord('operator', componentEnv({ KUBECONFIG: kubeconfig }));
    const { code, errors } = await outcome(operator);
    expect(code).toBe(2);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(
        `^the Kubernetes API server at ${server} cannot be reached \\(.+\\): check KUBECONFIG, or the in-cluster ServiceAccount when running in a pod$`,
      ),
    );
  });

  it('no AWS credentials anywhere: one line saying how to give sync some', async () => {
    const table = uniqueName('creds');
    await createTable(table);
    const env = componentEnv({
      DYNAMODB_TABLE: table,
      HOME: dir,
      AWS_CONFIG_FILE: join(dir, 'no-config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'no-credentials'),
      // The chain's last resort is the EC2 instance metadata service: never outside loopback here.
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    delete env.AWS_ACCESS_KEY_ID;
    delete env.AWS_SECRET_ACCESS_KEY;
    const sync = startLandlord('sync', env);
    expect(await outcome(sync)).toEqual({
      code: 2,
      errors: [
        `DYNAMODB_TABLE ${JSON.stringify(table)}: no AWS credentials found: set AWS_ACCESS_KEY_ID and ` +
          "AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or give sync's ServiceAccount an IAM role (IRSA: " +
          'AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE)',
      ],
    });
  });
});
