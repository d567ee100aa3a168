// External Secrets Operator's ExternalSecret CRD, from its pinned Go module (harness/external-secrets,
// downloaded by .ci/run), as its own release installs it: so the API server validates the
// ExternalSecrets landlord writes, without running ESO itself.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { externalSecretsModule } from './paths.js';

const run = promisify(execFile);
const MODULE = 'github.com/external-secrets/external-secrets';

/** The path of the ExternalSecret CRD's YAML in the module cache (downloaded first when missing). */
export async function externalSecretCrdFile(): Promise<string> {
  const { stdout } = await run('go', ['list', '-m', '-f', '{{.Dir}}', MODULE], {
    cwd: externalSecretsModule,
  });
  return join(stdout.trim(), 'config', 'crds', 'bases', 'external-secrets.io_externalsecrets.yaml');
}
