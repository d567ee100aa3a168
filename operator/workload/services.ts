// A tenant of several Deployments gets one ClusterIP Service per Deployment, named as it, so its
// services reach each other by a stable name (http://worker:8080) with nothing made by hand: the
// row may hold only Deployments and ConfigMaps. Each Service selects its Deployment's pods by the
// Deployment's own matchLabels (no sibling selects another's pods: workloads.ts refuses that) and
// carries every container port. None for a Deployment whose selector a Service cannot spell
// (matchExpressions), which declares no port, or whose name is not a Service name (a DNS-1035
// label) or is the exposed Service's; none for a tenant of one, which has never had them. Headless
// when the class says so (ClassServices). Pure.
import type { V1Deployment, V1Service, V1ServicePort } from '@kubernetes/client-node';
import type { ClassServices } from '../../api/tenantclass.js';
import { addressOf, EXPOSE_NAMES } from '../exposure/objects.js';

/** A Service's name: a DNS-1035 label. */
const SERVICE_NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Each Deployment's Service in `namespace`, in the Deployments' order; see above for which get none. */
export function workloadServices(
  deployments: readonly V1Deployment[],
  namespace: string,
  services: ClassServices,
): V1Service[] {
  return deployments.flatMap((deployment) => {
    const service = serviceOf(deployment, namespace, services);
    return service === undefined ? [] : [service];
  });
}

/** The labels a Service selects the Deployment's pods by; undefined when it cannot spell them. */
function selectorOf(deployment: V1Deployment): Record<string, string> | undefined {
  const selector = deployment.spec?.selector;
  const matchLabels = selector?.matchLabels ?? {};
  if ((selector?.matchExpressions ?? []).length > 0 || Object.keys(matchLabels).length === 0)
    return undefined;
  return { ...matchLabels };
}

function serviceOf(
  deployment: V1Deployment,
  namespace: string,
  services: ClassServices,
): V1Service | undefined {
  const name = deployment.metadata?.name ?? '';
  if (!SERVICE_NAME.test(name) || name === EXPOSE_NAMES.service) return undefined;
  const selector = selectorOf(deployment);
  const ports = portsOf(deployment);
  if (selector === undefined || ports.length === 0) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: { type: 'ClusterIP', ...addressOf(services), selector, ports },
  };
}

/** Every container port, once per number and protocol, named so a Service of several may hold them. */
function portsOf(deployment: V1Deployment): V1ServicePort[] {
  const ports = new Map<string, V1ServicePort>();
  for (const container of deployment.spec?.template.spec?.containers ?? []) {
    for (const { containerPort, protocol = 'TCP' } of container.ports ?? []) {
      const name = `${protocol.toLowerCase()}-${containerPort}`;
      if (!ports.has(name))
        ports.set(name, { name, port: containerPort, targetPort: containerPort, protocol });
    }
  }
  return [...ports.values()];
}
