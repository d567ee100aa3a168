// What a pod may read besides its image. In a shared namespace the Secrets, PersistentVolumeClaims,
// ServiceAccount tokens and other ConfigMaps there belong to other tenants or to the platform, and a
// pod reads whatever its manifest names: so in Shared mode a pod may reference only the ConfigMaps
// of its own row. Every container counts: init and ephemeral containers read the same volumes.
import type {
  V1EnvFromSource,
  V1EnvVar,
  V1PodSpec,
  V1Volume,
  V1VolumeProjection,
} from '@kubernetes/client-node';
import { fieldPath, indexPath, isRecord, isUnset, quote } from './json.js';
import type { RuleContext } from './pod-rule.js';
import { firstOf, inContainers, listOf, type AnyContainer, type Violation } from './pss-pod.js';

const SHARED = "is not allowed in a shared namespace, where it may be another tenant's";
const REMOVE = 'remove it; a tenant in a shared namespace reads only the ConfigMaps of its own row';

function refused(path: string, what: string): Violation {
  return { path, problem: `a reference to ${what} ${SHARED}`, fix: REMOVE };
}

export function referenceViolation(spec: V1PodSpec, context: RuleContext): Violation | undefined {
  if (context.tenantClass.mode !== 'Shared') return classSecretViolation(spec, context);
  const own = context.ownConfigMaps;
  return (
    podLevelViolation(spec) ??
    firstOf(listOf(spec.volumes), (v, i) => volumeViolation(v, indexPath('spec.volumes', i), own)) ??
    inContainers(spec, (container, path) => containerViolation(container, path, own))
  );
}

/**
 * PerTenant: names resolve only in the tenant's own namespace, so any reference is allowed, except
 * that a class with `secrets` says which Secrets the tenant has: a pod names one of them (as a
 * volume, a projection, envFrom or secretKeyRef) or none, never a name the row guessed.
 */
function classSecretViolation(spec: V1PodSpec, context: RuleContext): Violation | undefined {
  const names = new Set(context.tenantClass.secrets.map((s) => s.name));
  if (names.size === 0) return undefined;
  const check = (name: string | undefined, path: string): Violation | undefined =>
    name !== undefined && names.has(name) ? undefined : notClassSecret(name, path, names);
  const volume = (v: V1Volume, i: number): Violation | undefined => {
    const path = indexPath('spec.volumes', i);
    if (!isUnset(v.secret)) return check(v.secret.secretName, `${path}.secret.secretName`);
    const sources = isUnset(v.projected) ? [] : listOf(v.projected.sources);
    return firstOf(sources, (s, j) =>
      isUnset(s.secret)
        ? undefined
        : check(s.secret.name, `${indexPath(`${path}.projected.sources`, j)}.secret.name`),
    );
  };
  const container = (c: AnyContainer, path: string): Violation | undefined =>
    firstOf(listOf(c.env), (e, i) => {
      const ref = e.valueFrom?.secretKeyRef;
      return isUnset(ref)
        ? undefined
        : check(ref.name, `${indexPath(`${path}.env`, i)}.valueFrom.secretKeyRef.name`);
    }) ??
    firstOf(listOf(c.envFrom), (e, i) =>
      isUnset(e.secretRef)
        ? undefined
        : check(e.secretRef.name, `${indexPath(`${path}.envFrom`, i)}.secretRef.name`),
    );
  return firstOf(listOf(spec.volumes), volume) ?? inContainers(spec, container);
}

function notClassSecret(name: string | undefined, path: string, names: ReadonlySet<string>): Violation {
  const named = name === undefined ? 'a Secret' : `the Secret ${quote(name)}`;
  return {
    path,
    problem: `${named} is not one of the secrets the tenant's class gives it (${[...names].join(', ')})`,
    fix: "reference only a Secret the class's spec.secrets names; ask a platform admin to add one",
  };
}

function podLevelViolation(spec: V1PodSpec): Violation | undefined {
  if (listOf(spec.imagePullSecrets).length > 0) return refused('spec.imagePullSecrets', 'a Secret');
  // A claim is a namespaced object too: a device another tenant's pods were given.
  if (listOf(spec.resourceClaims).length > 0) return refused('spec.resourceClaims', 'a ResourceClaim');
  return undefined;
}

function volumeViolation(volume: V1Volume, path: string, own: ReadonlySet<string>): Violation | undefined {
  if (!isUnset(volume.secret)) return refused(`${path}.secret`, 'a Secret');
  if (!isUnset(volume.persistentVolumeClaim))
    return refused(`${path}.persistentVolumeClaim`, 'a PersistentVolumeClaim');
  // An ephemeral volume makes a PersistentVolumeClaim, an object kind no row may create.
  if (!isUnset(volume.ephemeral)) return refused(`${path}.ephemeral`, 'a PersistentVolumeClaim');
  if (!isUnset(volume.configMap)) return configMapViolation(volume.configMap.name, `${path}.configMap`, own);
  if (!isUnset(volume.projected)) {
    const sources = listOf(volume.projected.sources);
    const base = `${path}.projected.sources`;
    return firstOf(sources, (s, i) => projectionViolation(s, indexPath(base, i), own));
  }
  return secretFieldViolation(volume, path);
}

function projectionViolation(
  source: V1VolumeProjection,
  path: string,
  own: ReadonlySet<string>,
): Violation | undefined {
  if (!isUnset(source.secret)) return refused(`${path}.secret`, 'a Secret');
  if (!isUnset(source.serviceAccountToken))
    return refused(`${path}.serviceAccountToken`, 'a ServiceAccount token');
  if (!isUnset(source.configMap)) return configMapViolation(source.configMap.name, `${path}.configMap`, own);
  return undefined;
}

/**
 * Volume sources backed by storage drivers (csi, cephfs, rbd, azureFile, flexVolume, iscsi, ...)
 * name their credentials in a field such as nodePublishSecretRef, secretRef or secretName, or one
 * level down (csi's volumeAttributes.secretProviderClass, another tenant's as like as not).
 */
function secretFieldViolation(volume: V1Volume, path: string): Violation | undefined {
  for (const [sourceName, source] of Object.entries(volume)) {
    const field = secretField(source, fieldPath(path, sourceName), 2);
    if (field !== undefined) return refused(field, 'a Secret');
  }
  return undefined;
}

function secretField(value: unknown, path: string, depth: number): string | undefined {
  if (!isRecord(value) || depth === 0) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (isUnset(inner)) continue;
    if (/secret/i.test(key)) return fieldPath(path, key);
    const found = secretField(inner, fieldPath(path, key), depth - 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function configMapViolation(
  name: string | undefined,
  path: string,
  own: ReadonlySet<string>,
): Violation | undefined {
  if (name !== undefined && own.has(name)) return undefined;
  const named = name === undefined ? 'a ConfigMap' : `the ConfigMap ${quote(name)}`;
  return {
    path: `${path}.name`,
    problem: `${named} is not one of this row's ConfigMaps in the Deployment's namespace; in a shared namespace any other may be another tenant's`,
    fix: "reference only a ConfigMap the row's customizations create in the Deployment's namespace",
  };
}

function containerViolation(
  container: AnyContainer,
  path: string,
  own: ReadonlySet<string>,
): Violation | undefined {
  return (
    firstOf(listOf(container.env), (e, i) => envViolation(e, indexPath(`${path}.env`, i), own)) ??
    firstOf(listOf(container.envFrom), (e, i) => envFromViolation(e, indexPath(`${path}.envFrom`, i), own))
  );
}

function envViolation(env: V1EnvVar, path: string, own: ReadonlySet<string>): Violation | undefined {
  const from = env.valueFrom;
  if (isUnset(from)) return undefined;
  if (!isUnset(from.secretKeyRef)) return refused(`${path}.valueFrom.secretKeyRef`, 'a Secret');
  if (!isUnset(from.configMapKeyRef))
    return configMapViolation(from.configMapKeyRef.name, `${path}.valueFrom.configMapKeyRef`, own);
  return undefined;
}

function envFromViolation(
  env: V1EnvFromSource,
  path: string,
  own: ReadonlySet<string>,
): Violation | undefined {
  if (!isUnset(env.secretRef)) return refused(`${path}.secretRef`, 'a Secret');
  if (!isUnset(env.configMapRef))
    return configMapViolation(env.configMapRef.name, `${path}.configMapRef`, own);
  return undefined;
}
