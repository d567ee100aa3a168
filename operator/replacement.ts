// Which changes the API server refuses to make in place, so the operator replaces the child
// instead (deletes it, naming its uid, then creates it): a Service turning headless or back, as its
// class's services.headless changes (spec.clusterIP is immutable once allocated or set to None).
// Nothing else is replaced: any other refusal stalls the Tenant with the server's own message, as a
// Deployment's changed selector does. Pure.
import type { KubernetesObject, V1Service } from '@kubernetes/client-node';
import type { DesiredChild } from './desired.js';

const isHeadless = (service: KubernetesObject): boolean => (service as V1Service).spec?.clusterIP === 'None';

/** The live child must be replaced to match `child`: an apply would be refused (422, immutable). */
export function needsReplacement(child: DesiredChild, live: KubernetesObject): boolean {
  if (child.ref.kind !== 'Service') return false;
  return isHeadless(child.manifest) !== isHeadless(live);
}
