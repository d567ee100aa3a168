// Installing the CRDs a component reads at start-up (LANDLORD_INSTALL_CRD) or checking that they are
// served: a missing CRD is one clear start-up line instead of a watch that fails forever.
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import type { CrdDefinition } from '../../api/crds.js';
import { VERSION } from '../../api/tenant.js';
import type { Logger } from '../logger.js';
import { CONTENT_TYPE, isNotFound, type KubeApi } from './api.js';
import { apiPath } from './paths.js';
import { StartupError } from '../startup-error.js';

/** The CRD is not installed (or does not serve this version): a start-up problem with its own line. */
class CrdMissingError extends StartupError {}

/**
 * Makes sure each CRD is served, in order. With install, applies it (server-side apply, so an
 * upgrade updates the schema); without, a missing CRD is a clear start-up error.
 */
export async function ensureCrds(
  api: KubeApi,
  crds: readonly CrdDefinition[],
  install: boolean,
  logger: Logger,
): Promise<void> {
  for (const crd of crds) await ensureCrd(api, crd, install, logger);
}

async function ensureCrd(
  api: KubeApi,
  definition: CrdDefinition,
  install: boolean,
  logger: Logger,
): Promise<void> {
  const { name } = definition;
  const path = apiPath({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name });
  if (install) {
    await api.request({
      method: 'PATCH',
      path,
      query: { fieldManager: 'landlord', force: true },
      contentType: CONTENT_TYPE.apply,
      body: definition.crd,
      verb: 'apply',
    });
    logger.info('applied the CRD', { crd: name });
  }
  try {
    await waitEstablished(api, path, name);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    throw new CrdMissingError(
      `the CustomResourceDefinition ${name} is not installed: run \`kubectl apply -f crds/\` (or start with LANDLORD_INSTALL_CRD=true)`,
    );
  }
}

async function waitEstablished(api: KubeApi, path: string, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const crd = await api.request<V1CustomResourceDefinition>({ method: 'GET', path });
    const established = crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    const served = crd.spec.versions.some((v) => v.name === VERSION && v.served);
    if (!served) throw new CrdMissingError(`the CustomResourceDefinition ${name} does not serve ${VERSION}`);
    if (established === true) return;
    if (attempt > 100) throw new Error(`the CustomResourceDefinition ${name} never became Established`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
