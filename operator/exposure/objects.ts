// The objects that make a tenant reachable, in its own namespace: a Service (headless if the class
// says so) that sends port 80 to the class's expose.port on the tenant's pods, and one route to it
// for each host the tenant holds: an Ingress of the class's IngressClass, or a Gateway API
// HTTPRoute attached to the class's Gateway. Fixed names and content that depends only on the
// class, the tenant's name and its hosts, so a reconcile with nothing new writes nothing. Pure.
import type { KubernetesObject, V1Deployment, V1Ingress, V1Service } from '@kubernetes/client-node';
import { LABEL } from '../../api/tenant.js';
import type { ClassExpose, ClassServices, ExposeGateway } from '../../api/tenantclass.js';

export const EXPOSE_NAMES = {
  service: 'landlord-app',
  route: 'landlord-app',
} as const;

/** The Service's port: what the route sends traffic to. */
const SERVICE_PORT = 80;

/**
 * The label the Service selects on, forced onto the tenant's pod template: the row's own labels may
 * change with any edit (or select nothing the Service could spell, as matchExpressions), this one
 * never does. The namespace holds only this tenant's pods, so one fixed value is enough, and it
 * names no tenant: a warm pool member's pods carry it already, and a claim keeps them.
 */
const POD_SELECTOR = { [LABEL.exposed]: 'app' } as const;

/** The Deployment whose pods carry the Service's label: a copy of the path it changes, `deployment` unchanged. */
export function withExposedPods(deployment: V1Deployment): V1Deployment {
  const template = deployment.spec?.template;
  if (template === undefined) return deployment;
  const metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...POD_SELECTOR } };
  return { ...deployment, spec: { ...deployment.spec!, template: { ...template, metadata } } };
}

/**
 * A Service's address as the class wants it: none (`clusterIP: None`) when headless; otherwise the
 * field is left out and the cluster allocates one, as it always did, so a class that does not set
 * `services` keeps every Service's manifest, and its hash, as before.
 */
export function addressOf(services: ClassServices): { clusterIP?: 'None' } {
  return services.headless ? { clusterIP: 'None' } : {};
}

export function service(expose: ClassExpose, namespace: string, services: ClassServices): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: EXPOSE_NAMES.service, namespace },
    spec: {
      type: 'ClusterIP',
      ...addressOf(services),
      selector: { ...POD_SELECTOR },
      ports: [{ name: 'http', protocol: 'TCP', port: SERVICE_PORT, targetPort: expose.port }],
    },
  };
}

/** The route of the class's kind, for `hosts` (sorted, the tenant's own first is not needed). */
export function route(expose: ClassExpose, namespace: string, hosts: readonly string[]): KubernetesObject {
  return expose.gateway === undefined
    ? ingress(expose, namespace, hosts)
    : httpRoute(expose.gateway, namespace, hosts);
}

function ingress(expose: ClassExpose, namespace: string, hosts: readonly string[]): V1Ingress {
  const backend = { service: { name: EXPOSE_NAMES.service, port: { number: SERVICE_PORT } } };
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: EXPOSE_NAMES.route, namespace },
    spec: {
      ...(expose.ingressClassName === undefined ? {} : { ingressClassName: expose.ingressClassName }),
      rules: hosts.map((host) => ({
        host,
        http: { paths: [{ path: '/', pathType: 'Prefix', backend }] },
      })),
      // The CRD lets an Ingress class set tls only with a per-tenant secretName.
      ...(expose.tls?.secretName === undefined
        ? {}
        : { tls: [{ hosts: [...hosts], secretName: expose.tls.secretName }] }),
    },
  };
}

/** An HTTPRoute, as sent on the wire (client-node has no Gateway API types). */
interface HttpRoute extends KubernetesObject {
  spec: {
    parentRefs: { namespace: string; name: string; sectionName?: string }[];
    hostnames: string[];
    rules: { backendRefs: { name: string; port: number }[] }[];
  };
}

function httpRoute(gateway: ExposeGateway, namespace: string, hosts: readonly string[]): HttpRoute {
  const { sectionName } = gateway;
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: EXPOSE_NAMES.route, namespace },
    spec: {
      parentRefs: [
        {
          namespace: gateway.namespace,
          name: gateway.name,
          ...(sectionName === undefined ? {} : { sectionName }),
        },
      ],
      // Never empty (a route without hostnames takes every host of its listener): the caller
      // makes a route only for a tenant that holds a host.
      hostnames: [...hosts],
      rules: [{ backendRefs: [{ name: EXPOSE_NAMES.service, port: SERVICE_PORT }] }],
    },
  };
}

/** Where the tenant is reached: its templated host, https when the class sets tls. */
export function tenantUrl(expose: ClassExpose, host: string): string {
  return `${expose.tls === undefined ? 'http' : 'https'}://${host}`;
}
