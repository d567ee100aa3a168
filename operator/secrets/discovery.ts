// Whether External Secrets Operator is installed: its external-secrets.io/v1 API serves
// ExternalSecrets. Asked once at start-up (one discovery request, which every authenticated client
// may make); a cluster that installs ESO later needs the operator restarted, as the
// ExternalSecretsNotInstalled message says.
import { isNotFound, type KubeApi } from '../../runtime/kube/api.js';
import type { Logger } from '../../runtime/logger.js';

const GROUP_VERSION = '/apis/external-secrets.io/v1';

export async function externalSecretsServed(api: KubeApi, logger: Logger): Promise<boolean> {
  try {
    const list = await api.request<{ resources?: { name?: string }[] }>({
      method: 'GET',
      path: GROUP_VERSION,
    });
    const served = (list.resources ?? []).some((r) => r.name === 'externalsecrets');
    logger.info('External Secrets Operator', { externalSecrets: served ? 'served' : 'not served' });
    return served;
  } catch (err) {
    // Not found: ESO is not installed. Anything else: say so, and run without it rather than not at all.
    if (!isNotFound(err))
      logger.warn('could not ask whether ExternalSecrets are served', { error: String(err) });
    return false;
  }
}
