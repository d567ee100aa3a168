// What the Pod Security checks share: the pod template they read, the violation they report, and
// walks over containers and security contexts in one fixed order, so the same template always
// yields the same first violation.
import type {
  V1Container,
  V1EphemeralContainer,
  V1PodSecurityContext,
  V1PodSpec,
  V1SecurityContext,
} from '@kubernetes/client-node';
import { indexPath, isUnset } from './json.js';

export interface PodTemplate {
  spec: V1PodSpec;
  annotations: Record<string, string>;
}

/** One broken rule; `path` is relative to the pod template (`spec.containers[0].securityContext`). */
export interface Violation {
  path: string;
  /** Ends in "is not allowed" / "are not allowed"; the message adds which standard says so. */
  problem: string;
  fix: string;
}

export type Check = (pod: PodTemplate) => Violation | undefined;

export type AnyContainer = V1Container | V1EphemeralContainer;

export const POD_SECURITY_CONTEXT = 'spec.securityContext';

interface ContainerAt {
  container: AnyContainer;
  path: string;
}

/** Every container the pod runs: the Standards apply to init and ephemeral containers alike. */
function containersOf(spec: V1PodSpec): ContainerAt[] {
  return [
    ...located(spec.containers, 'spec.containers'),
    ...located(spec.initContainers, 'spec.initContainers'),
    ...located(spec.ephemeralContainers, 'spec.ephemeralContainers'),
  ];
}

function located(list: readonly AnyContainer[] | null | undefined, base: string): ContainerAt[] {
  return listOf(list).map((container, i) => ({ container, path: indexPath(base, i) }));
}

/** A list field read as a list whether it is absent, null or set. */
export function listOf<T>(list: readonly T[] | null | undefined): readonly T[] {
  return list ?? [];
}

export function firstOf<T>(
  items: readonly T[],
  find: (item: T, index: number) => Violation | undefined,
): Violation | undefined {
  for (const [index, item] of items.entries()) {
    const found = find(item, index);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function inContainers(
  spec: V1PodSpec,
  find: (container: AnyContainer, path: string) => Violation | undefined,
): Violation | undefined {
  return firstOf(containersOf(spec), ({ container, path }) => find(container, path));
}

/** Each container's securityContext that is set, with its path. */
export function inContainerContexts(
  spec: V1PodSpec,
  find: (context: V1SecurityContext, path: string) => Violation | undefined,
): Violation | undefined {
  return inContainers(spec, (container, path) => {
    const context = container.securityContext;
    return isUnset(context) ? undefined : find(context, `${path}.securityContext`);
  });
}

/** The pod's securityContext first, then each container's, for fields both levels carry. */
export function inSecurityContexts(
  spec: V1PodSpec,
  find: (context: V1PodSecurityContext | V1SecurityContext, path: string) => Violation | undefined,
): Violation | undefined {
  const pod = spec.securityContext;
  const atPod = isUnset(pod) ? undefined : find(pod, POD_SECURITY_CONTEXT);
  return atPod ?? inContainerContexts(spec, find);
}

/** Linux-only rules skip Windows pods, as the Standards have since Kubernetes 1.25. */
export function isWindowsPod(spec: V1PodSpec): boolean {
  return spec.os?.name === 'windows';
}
