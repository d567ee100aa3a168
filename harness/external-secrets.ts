// External Secrets Operator from its pinned Go module (harness/external-secrets, downloaded by
// .ci/run): its CRDs as its own release installs them, and its controller, built into the tool
// cache (harness/tools.ts) and run against a test control plane as a cluster would run it.
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { externalSecretsModule } from './paths.js';
import { freePort } from './ports.js';
import { startProcess, type ManagedProcess } from './process.js';
import { ensureExternalSecrets } from './tools.js';

const run = promisify(execFile);
const MODULE = 'github.com/external-secrets/external-secrets';

async function crdFolder(): Promise<string> {
  const { stdout } = await run('go', ['list', '-m', '-f', '{{.Dir}}', MODULE], {
    cwd: externalSecretsModule,
  });
  return join(stdout.trim(), 'config', 'crds', 'bases');
}

/** The path of the ExternalSecret CRD's YAML in the module cache (downloaded first when missing). */
export async function externalSecretCrdFile(): Promise<string> {
  return join(await crdFolder(), 'external-secrets.io_externalsecrets.yaml');
}

/** Every CRD of the release (stores, ExternalSecrets, PushSecrets, generators): what the controller watches. */
export async function externalSecretsCrdFiles(): Promise<string[]> {
  const folder = await crdFolder();
  const files = await readdir(folder);
  return files.filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml').map((f) => join(folder, f));
}

export interface ExternalSecretsProcess {
  readonly process: ManagedProcess;
  /** Its Prometheus endpoint, on loopback. */
  readonly metricsUrl: string;
}

/**
 * Starts ESO's controller against the cluster of `kubeconfig`, its log in `logDir`. Leader election
 * off (one replica), and only the reconcilers a class's externalSecret entries need: stores and
 * ExternalSecrets (no PushSecrets, no ClusterExternalSecrets).
 */
export async function startExternalSecrets(
  kubeconfig: string,
  logDir: string,
): Promise<ExternalSecretsProcess> {
  const binary = await ensureExternalSecrets();
  const metricsAddress = `127.0.0.1:${await freePort()}`;
  const process_ = startProcess({
    name: 'external-secrets',
    command: binary,
    args: [
      `--metrics-addr=${metricsAddress}`,
      '--enable-leader-election=false',
      '--enable-cluster-external-secret-reconciler=false',
      '--enable-cluster-push-secret-reconciler=false',
      '--enable-push-secret-reconciler=false',
      '--loglevel=info',
      '--zap-time-encoding=iso8601',
    ],
    logDir,
    env: { ...process.env, KUBECONFIG: kubeconfig },
  });
  return { process: process_, metricsUrl: `http://${metricsAddress}/metrics` };
}
