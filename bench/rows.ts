// The benchmark's tenants: each a Deployment of one replica (none with --no-pods) and one ConfigMap
// in the bench namespace, written as users write rows (seed format: JSON text in S attributes).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';

export const BENCH_NAMESPACE = 'bench';
export const FIRST_IMAGE = 'nginx:1.27';

export const tenantName = (index: number): string => `t-${String(index).padStart(5, '0')}`;
export const deploymentName = (tenant: string): string => `${tenant}-app`;

/**
 * Replicas of every bench Deployment: one, or none with --no-pods, which leaves the pod pipeline
 * (scheduler, kwok, the ReplicaSet controller) idle so that a run measures the part landlord controls.
 */
export const benchReplicas = (options: { pods: boolean }): number => (options.pods ? 1 : 0);

export function deployment(tenant: string, image = FIRST_IMAGE, replicas = 1): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: deploymentName(tenant), namespace: BENCH_NAMESPACE },
    spec: {
      replicas,
      selector: { matchLabels: { app: tenant } },
      template: {
        metadata: { labels: { app: tenant } },
        spec: { containers: [{ name: 'app', image }] },
      },
    },
  };
}

export function configMap(tenant: string): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${tenant}-config`, namespace: BENCH_NAMESPACE },
    data: { 'config.json': JSON.stringify({ tenant, key: 'value' }) },
  };
}

/** The row of one tenant, in DynamoDB's low-level form for BatchWriteItem. */
export function row(tenant: string, replicas = 1): Record<string, AttributeValue> {
  return {
    name: { S: tenant },
    spec: { S: JSON.stringify(deployment(tenant, FIRST_IMAGE, replicas)) },
    customizations: { S: JSON.stringify([configMap(tenant)]) },
    deleted: { BOOL: false },
  };
}
