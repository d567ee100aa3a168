// Command lines of the control-plane components, all bound to loopback. Flags are chosen to be
// close to a real cluster (RBAC, admission, service accounts, GC) while starting fast.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Credentials } from './credentials.js';
import { controlPlaneModule } from './paths.js';

export interface Ports {
  etcdClient: number;
  etcdPeer: number;
  apiServer: number;
  dynamodb: number;
}

export function etcdArgs(dataDir: string, ports: Ports): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  return [
    '--name=e2e',
    `--data-dir=${dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=e2e=${peer}`,
    // A throwaway test store: durability is not worth an fsync per write.
    '--unsafe-no-fsync=true',
    '--quota-backend-bytes=8589934592',
    '--log-level=warn',
  ];
}

export function apiServerArgs(runDir: string, ports: Ports, creds: Credentials): string[] {
  return [
    `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${ports.apiServer}`,
    `--cert-dir=${join(runDir, 'apiserver-certs')}`,
    `--token-auth-file=${creds.tokenFile}`,
    '--authorization-mode=Node,RBAC',
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${creds.serviceAccountPub}`,
    `--service-account-signing-key-file=${creds.serviceAccountKey}`,
    '--service-cluster-ip-range=10.96.0.0/16',
    // The "kubernetes" Service would point at a loopback address, which the API refuses.
    '--endpoint-reconciler-type=none',
    '--enable-priority-and-fairness=true',
    // LANDLORD_APISERVER_PROFILING=1 serves /debug/pprof, to see where the API server's CPU goes
    // in a bench run (docs/performance.md, "Where the API server's time goes").
    `--profiling=${process.env.LANDLORD_APISERVER_PROFILING === '1'}`,
    '--v=1',
  ];
}

export function controllerManagerArgs(kubeconfig: string, caFile: string, creds: Credentials): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    // validatingadmissionpolicy-status-controller type-checks admission policies against the
    // kinds they match and reports warnings in their status (e2e/admission-exposure.test.ts);
    // endpointslice-controller resolves an exposed tenant's Service to its pods (e2e/expose.test.ts).
    '--controllers=garbage-collector-controller,deployment-controller,replicaset-controller,namespace-controller,resourcequota-controller,clusterrole-aggregation-controller,serviceaccount-controller,serviceaccount-token-controller,root-ca-certificate-publisher-controller,node-lifecycle-controller,validatingadmissionpolicy-status-controller,endpointslice-controller',
    `--service-account-private-key-file=${creds.serviceAccountKey}`,
    `--root-ca-file=${caFile}`,
    // As in real clusters: each controller acts as its own ServiceAccount with its bootstrap role.
    '--use-service-account-credentials=true',
    '--leader-elect=false',
    '--secure-port=0',
    // The defaults (20 qps) would make the controllers, not landlord, the bottleneck at 5,000 tenants.
    '--kube-api-qps=500',
    '--kube-api-burst=1000',
    '--concurrent-deployment-syncs=20',
    '--concurrent-replicaset-syncs=20',
    '--concurrent-gc-syncs=40',
    // The node-lifecycle controller reads kwok's Lease from an informer cache. The fault tests restart
    // kube-apiserver several times within a minute, and client-go then waits up to a minute before
    // listing again: with the default 50 s grace, a stale cache reads as a dead node, whose pods are
    // marked NotReady and whose taints stop scheduling. Longer than that wait, shorter than a test.
    '--node-monitor-grace-period=2m',
    '--v=1',
  ];
}

export async function schedulerArgs(runDir: string, kubeconfig: string): Promise<string[]> {
  const configFile = join(runDir, 'scheduler.json');
  const config = {
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    clientConnection: { kubeconfig, qps: 500, burst: 1000 },
    leaderElection: { leaderElect: false },
  };
  await writeFile(configFile, JSON.stringify(config));
  return [`--config=${configFile}`, '--secure-port=0', '--v=1'];
}

export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

/** Stages of landlord's own, added to the pinned kwok module's (see each file for why). */
export const KWOK_EXTRA_STAGES = ['pod-ready-again.yaml', 'pod-ready-slowly.yaml'].map((f) =>
  join(controlPlaneModule, 'kwok', f),
);

/** The pod annotation (kwok's own) that pod-ready-slowly.yaml reads: how long a pod takes to be Ready, e.g. "20s". */
export const KWOK_READY_DELAY_ANNOTATION = 'pod-ready.stage.kwok.x-k8s.io/delay';

export function kwokArgs(kubeconfig: string, stagesFile: string): string[] {
  return [
    `--kubeconfig=${kubeconfig}`,
    `--config=${stagesFile}`,
    ...KWOK_EXTRA_STAGES.map((f) => `--config=${f}`),
    `--manage-nodes-with-annotation-selector=${KWOK_NODE_ANNOTATION}=fake`,
    // Room for a pod per tenant at the 5,000-tenant benchmark.
    '--cidr=10.64.0.0/14',
    '--node-lease-duration-seconds=40',
  ];
}
