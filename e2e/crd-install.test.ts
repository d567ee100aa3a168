// Without the Tenant CRD the operator refuses to start and says how to fix it; with
// LANDLORD_INSTALL_CRD=true it installs the CRD itself. This needs a cluster that has never had the
// CRD, so the file starts its own control plane beside the shared one.
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRD_NAME } from '../api/tenant.js';
import { Cluster } from '../harness/cluster.js';
import { loadKubeConfig } from '../harness/readiness.js';
import { componentEnv, startLandlord } from './support/landlord.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await Cluster.start({ dynamodb: 'none', log: () => undefined });
});

afterAll(async () => {
  await cluster.stop();
});

describe('the Tenant CRD', () => {
  it('missing: the operator exits 2 with one clear line saying how to install it', async () => {
    const operator = startLandlord(
      'operator',
      componentEnv({ KUBECONFIG: cluster.adminKubeconfig, LANDLORD_INSTALL_CRD: 'false' }),
    );
    expect(await operator.exited).toBe(2);
    const errors = operator.logs.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual([
      `the CustomResourceDefinition ${CRD_NAME} is not installed: run \`kubectl apply -f crds/\` (or start with LANDLORD_INSTALL_CRD=true)`,
    ]);
  });

  it('LANDLORD_INSTALL_CRD=true: the operator installs it and becomes ready', async () => {
    const operator = startLandlord(
      'operator',
      componentEnv({ KUBECONFIG: cluster.adminKubeconfig, LANDLORD_INSTALL_CRD: 'true' }),
    );
    await operator.ready();
    const crd = await loadKubeConfig(cluster.adminKubeconfig)
      .makeApiClient(ApiextensionsV1Api)
      .readCustomResourceDefinition({ name: CRD_NAME });
    expect(crd.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
    expect(await operator.stop()).toBe(0);
  });
});
