// What the nodes and the pods that are not Ready say, for the message of a convergence that timed
// out (waitConverged in converged.ts).
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { isReady } from '../../harness/readiness.js';
import { clients } from './env.js';

const { core } = clients();

const conditionText = (c: { type: string; status: string; reason?: string; message?: string }): string =>
  `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? ` (${c.message.slice(0, 80)})` : ''}`;

function nodeFact(node: V1Node): string {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const taints = (node.spec?.taints ?? []).map((t) => `${t.key}:${t.effect}`).join(',') || 'none';
  return `Node ${node.metadata?.name}: ${ready ? conditionText(ready) : 'no Ready condition'}, taints ${taints}`;
}

function podFact(pod: V1Pod): string {
  const conditions = (pod.status?.conditions ?? []).map(conditionText).join('; ');
  const deleting = pod.metadata?.deletionTimestamp ? ', being deleted' : '';
  return (
    `Pod ${pod.metadata?.name} created ${pod.metadata?.creationTimestamp?.toISOString()} ` +
    `${pod.status?.phase} on ${pod.spec?.nodeName ?? '(unscheduled)'}${deleting}: ${conditions}`
  );
}

/**
 * The nodes' readiness and taints and every pod of the namespaces that is not Ready, for a
 * timeout's message: a rollout that never finishes is as often the simulated node (kwok) or
 * kube-controller-manager as it is landlord, and the message should say which.
 */
export async function clusterFacts(namespaces: readonly string[]): Promise<string[]> {
  const facts = (await core.listNode()).items.map(nodeFact);
  for (const namespace of namespaces) {
    const pods = (await core.listNamespacedPod({ namespace })).items;
    const unready = pods.filter((p) => !isReady(p));
    facts.push(`${unready.length} of ${pods.length} pods in ${namespace} are not Ready`);
    facts.push(...unready.slice(0, 20).map(podFact));
  }
  return facts;
}
