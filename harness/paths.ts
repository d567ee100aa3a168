// Where the harness keeps things: built binaries in the user cache (never in the repo), the
// Python virtualenv inside the repo (git-ignored), and per-run state under the OS temp dir.
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The repository root, whether running from harness/ (vitest) or dist/harness/ (built). */
export const repoRoot = resolve(here, here.includes(join('dist', 'harness')) ? '../..' : '..');

export const cacheRoot = process.env.LANDLORD_CACHE ?? join(homedir(), '.cache', 'landlord');
export const controlPlaneModule = join(repoRoot, 'harness', 'controlplane');
export const toolsModule = join(repoRoot, 'harness', 'tools');
export const promtoolModule = join(repoRoot, 'harness', 'promtool');
export const helm3Module = join(repoRoot, 'harness', 'helm3');
/** Only pins the Gateway API release whose CRDs the e2e tests install (harness/gateway-api.ts). */
export const gatewayApiModule = join(repoRoot, 'harness', 'gateway-api');
/** External Secrets Operator's pinned module: the ExternalSecret CRD e2e/secrets.test.ts installs. */
export const externalSecretsModule = join(repoRoot, 'harness', 'external-secrets');
export const venvDir = join(repoRoot, '.venv');
export const motoRequirements = join(repoRoot, 'harness', 'requirements.txt');
export const e2eStateDir = join(repoRoot, '.e2e');
