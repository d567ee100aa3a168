// What one row may ask of the cluster: so many replicas, so many ConfigMaps, so many bytes. The size
// and the ConfigMap count are checked before anything else, so a huge row costs a count and no
// schema walk; a Deployment without replicas means 1, which no limit refuses.
import type { V1Deployment } from '@kubernetes/client-node';
import { CONFIG_MAPS_PATH, DEPLOYMENT_PATH, placeIn, type Child } from './children.js';
import type { ClassLimits } from './class.js';
import type { JsonRecord } from './json.js';
import { refusal, type Refusal } from './refusals.js';

export function checkRowSize(spec: JsonRecord, limits: ClassLimits): Refusal | undefined {
  const bytes = jsonBytes([spec.deployment, spec.configMaps ?? null]);
  if (bytes <= limits.maxRowBytes) return undefined;
  return refusal.limitExceeded(
    { child: 'the row', path: `${DEPLOYMENT_PATH} and ${CONFIG_MAPS_PATH} (bytes of JSON)` },
    { limit: 'maxRowBytes', value: bytes, max: limits.maxRowBytes },
    'make the row smaller: move large data out of the manifests',
  );
}

export function checkConfigMapCount(list: unknown, limits: ClassLimits): Refusal | undefined {
  if (!Array.isArray(list) || list.length <= limits.maxConfigMaps) return undefined;
  return refusal.limitExceeded(
    { child: 'ConfigMap list', path: CONFIG_MAPS_PATH },
    { limit: 'maxConfigMaps', value: list.length, max: limits.maxConfigMaps },
    'merge ConfigMaps (one may hold many keys), or ask for a class with a higher limit',
  );
}

export function checkReplicas(deployment: Child<V1Deployment>, limits: ClassLimits): Refusal | undefined {
  const replicas = deployment.value.spec?.replicas ?? 1;
  if (replicas <= limits.maxReplicas) return undefined;
  return refusal.limitExceeded(
    placeIn(deployment, `${deployment.path}.spec.replicas`),
    { limit: 'maxReplicas', value: replicas, max: limits.maxReplicas },
    `set replicas to at most ${limits.maxReplicas}, or ask for a class with a higher limit`,
  );
}

/** A Tenant read from the API server is JSON; anything else (a BigInt) is counted as its text. */
function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return Buffer.byteLength(text, 'utf8');
}
