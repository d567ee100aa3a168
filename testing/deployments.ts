// Deployment fixtures that both the unit tests and the benchmarks build rows from (not shipped).
import type { V1Deployment } from '@kubernetes/client-node';

/**
 * `deployment` as another service of the same tenant (a row's spec as an array): its own name, and
 * pod labels of its own that its selector matches, so no two services select each other's pods.
 */
export function asService(
  deployment: V1Deployment,
  name: string,
  labels: Record<string, string>,
): V1Deployment {
  return {
    ...deployment,
    metadata: { ...deployment.metadata, name },
    spec: {
      ...deployment.spec!,
      selector: { matchLabels: labels },
      template: { ...deployment.spec!.template, metadata: { labels } },
    },
  };
}
