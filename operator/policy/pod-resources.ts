// What a pod may hold of a node besides CPU and memory, against the class's limits: how long it may
// keep the node once told to stop, how much disk its emptyDir volumes may fill, and whether it may
// make a PersistentVolumeClaim of its own through a generic ephemeral volume. An emptyDir without a
// sizeLimit gets the class's default (class-fields.ts), so only a size the row sets is checked here.
import type { V1PodSpec, V1Volume } from '@kubernetes/client-node';
import { indexPath, isUnset, quote } from './json.js';
import type { RuleContext } from './pod-rule.js';
import { firstOf, listOf, type Violation } from './pss-pod.js';
import { quantityValue } from '../../util/quantity.js';

const VOLUMES = 'spec.volumes';

/** Over a class limit: a grace period or an emptyDir size larger than the class allows. */
export function podLimitViolation(spec: V1PodSpec, { tenantClass }: RuleContext): Violation | undefined {
  const { limits } = tenantClass;
  const grace = spec.terminationGracePeriodSeconds;
  if (!isUnset(grace) && grace > limits.maxTerminationGracePeriodSeconds) {
    return {
      path: 'spec.terminationGracePeriodSeconds',
      problem: `${grace} is over the tenant class's limit maxTerminationGracePeriodSeconds of ${limits.maxTerminationGracePeriodSeconds}`,
      fix: `set it to at most ${limits.maxTerminationGracePeriodSeconds}, or remove it (30 seconds)`,
    };
  }
  const max = quantityValue(limits.maxEmptyDirSizeLimit) ?? 0;
  return firstOf(listOf(spec.volumes), (volume, i) => {
    const size = sizeLimitOf(volume);
    if (size === undefined || (quantityValue(size) ?? 0) <= max) return undefined;
    return {
      path: `${indexPath(VOLUMES, i)}.emptyDir.sizeLimit`,
      problem: `${shown(size)} is over the tenant class's limit maxEmptyDirSizeLimit of ${limits.maxEmptyDirSizeLimit}`,
      fix: `ask for at most ${limits.maxEmptyDirSizeLimit}, or remove sizeLimit (the class sets ${limits.defaultEmptyDirSizeLimit})`,
    };
  });
}

/** Fields the API server refuses or landlord cannot judge: refused before an apply that would fail. */
export function podFieldViolation(spec: V1PodSpec): Violation | undefined {
  if (!isUnset(spec.activeDeadlineSeconds)) {
    return {
      path: 'spec.activeDeadlineSeconds',
      problem:
        "is not allowed on a Deployment's pods: the API server refuses it, since a ReplicaSet would replace each pod that reaches its deadline, forever",
      fix: 'remove it',
    };
  }
  return firstOf(listOf(spec.volumes), (volume, i) => {
    const size = sizeLimitOf(volume);
    if (size === undefined || quantityValue(size) !== undefined) return undefined;
    return {
      path: `${indexPath(VOLUMES, i)}.emptyDir.sizeLimit`,
      problem: `${shown(size)} is not a quantity`,
      fix: 'write a size such as 512Mi or 2Gi, or remove it',
    };
  });
}

/** A generic ephemeral volume makes a PersistentVolumeClaim per pod: storage the class must allow. */
export function volumeViolation(spec: V1PodSpec, { tenantClass }: RuleContext): Violation | undefined {
  if (tenantClass.limits.allowEphemeralVolumes) return undefined;
  return firstOf(listOf(spec.volumes), (volume, i) =>
    isUnset(volume.ephemeral)
      ? undefined
      : {
          path: `${indexPath(VOLUMES, i)}.ephemeral`,
          problem:
            'generic ephemeral volumes are not allowed by the tenant class: each pod would make a PersistentVolumeClaim',
          fix: 'use an emptyDir volume, or ask for a class with allowEphemeralVolumes',
        },
  );
}

function shown(value: unknown): string {
  return quote(typeof value === 'string' ? value : JSON.stringify(value));
}

/** The sizeLimit an emptyDir volume sets, as the row wrote it. */
function sizeLimitOf(volume: V1Volume): unknown {
  const sizeLimit: unknown = volume.emptyDir?.sizeLimit;
  return isUnset(sizeLimit) ? undefined : sizeLimit;
}
