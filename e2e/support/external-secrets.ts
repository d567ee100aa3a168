// External Secrets Operator in the e2e cluster: its CRDs applied and Established, before the operator
// starts (it asks once, at start-up, whether ESO's API is served).
import { externalSecretsCrdFiles } from '../../harness/external-secrets.js';
import { kubectl } from './kubectl.js';

const CRD_TIMEOUT = '180s';

export async function installExternalSecretsCrds(): Promise<void> {
  const files = (await externalSecretsCrdFiles()).flatMap((f) => ['-f', f]);
  await kubectl('apply', '--server-side', ...files);
  await kubectl('wait', '--for=condition=Established', ...files, `--timeout=${CRD_TIMEOUT}`);
}
