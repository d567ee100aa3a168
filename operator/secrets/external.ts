// An externalSecret entry as External Secrets Operator reads it: an external-secrets.io/v1
// ExternalSecret in the tenant namespace whose target is the entry's Secret, taking every property
// of the remote key ("{name}" filled in: the per-tenant key template ClusterExternalSecret cannot
// express). And ESO's verdict on it, read from its Ready condition. Pure.
import type { KubernetesObject } from '@kubernetes/client-node';
import { fillName, type ClassSecret } from '../../api/tenantclass.js';

type ExternalEntry = Required<Pick<ClassSecret, 'externalSecret'>> & ClassSecret;

export function externalSecret(entry: ExternalEntry, namespace: string, tenant: string): KubernetesObject {
  const { storeRef, remoteKey, refreshInterval } = entry.externalSecret;
  return {
    apiVersion: 'external-secrets.io/v1',
    kind: 'ExternalSecret',
    metadata: { name: entry.name, namespace },
    spec: {
      secretStoreRef: { kind: storeRef.kind, name: storeRef.name },
      ...(refreshInterval === undefined ? {} : { refreshInterval }),
      // Owner: ESO owns the Secret it makes, so it goes with the ExternalSecret (pruned with its entry).
      target: { name: entry.name, creationPolicy: 'Owner' },
      dataFrom: [{ extract: { key: fillName(remoteKey, tenant) } }],
    },
  } as KubernetesObject;
}

interface EsoCondition {
  type?: string;
  status?: string;
  message?: string;
}

/** What ESO says of the ExternalSecret: undefined when Ready=True, else why not (its own message). */
export function externalProblem(live: KubernetesObject | undefined): string | undefined {
  if (live === undefined) return 'not created yet';
  const status = (live as { status?: { conditions?: EsoCondition[] } }).status;
  const ready = status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return undefined;
  if (ready === undefined) return 'External Secrets Operator has not reported Ready yet';
  return `not Ready: ${ready.message ?? 'no message'}`;
}
