// The restricted Pod Security Standard: what it adds to baseline (current pod hardening practice).
import { fieldPath, indexPath, isUnset, quote } from './json.js';
import {
  POD_SECURITY_CONTEXT,
  firstOf,
  inContainers,
  inSecurityContexts,
  isWindowsPod,
  listOf,
  type Check,
} from './pss-pod.js';

const RESTRICTED_VOLUME_TYPES: readonly string[] = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

const ADDABLE_CAPABILITY = 'NET_BIND_SERVICE';

/** A check that Linux-only rules skip for Windows pods. */
function linuxOnly(check: Check): Check {
  return (pod) => (isWindowsPod(pod.spec) ? undefined : check(pod));
}

const volumeTypes: Check = ({ spec }) =>
  firstOf(listOf(spec.volumes), (volume, i) => {
    const fields: [string, unknown][] = Object.entries(volume);
    // A volume with no source at all is an emptyDir once the API server defaults it.
    const source = fields
      .filter(([key, value]) => key !== 'name' && !isUnset(value))
      .map(([key]) => key)
      .sort()
      .find((key) => !RESTRICTED_VOLUME_TYPES.includes(key));
    if (source === undefined) return undefined;
    return {
      path: fieldPath(indexPath('spec.volumes', i), source),
      problem: `the volume type ${quote(source)} is not allowed`,
      fix: `use one of ${RESTRICTED_VOLUME_TYPES.join(', ')}`,
    };
  });

const privilegeEscalation: Check = linuxOnly(({ spec }) =>
  inContainers(spec, (container, path) =>
    container.securityContext?.allowPrivilegeEscalation === false
      ? undefined
      : {
          path: `${path}.securityContext.allowPrivilegeEscalation`,
          problem: 'containers that allow privilege escalation are not allowed',
          fix: 'set allowPrivilegeEscalation: false in the container securityContext',
        },
  ),
);

const runAsNonRoot: Check = ({ spec }) => {
  const atPod = spec.securityContext?.runAsNonRoot;
  if (atPod === false) {
    return {
      path: `${POD_SECURITY_CONTEXT}.runAsNonRoot`,
      problem: 'running as root is not allowed',
      fix: 'set it to true',
    };
  }
  return inContainers(spec, (container, path) => {
    const own = container.securityContext?.runAsNonRoot;
    if (own === true || (isUnset(own) && atPod === true)) return undefined;
    const at = `${path}.securityContext.runAsNonRoot`;
    if (own === false) return { path: at, problem: 'running as root is not allowed', fix: 'set it to true' };
    return {
      path: at,
      problem: 'containers that may run as root are not allowed',
      fix: `set runAsNonRoot: true in ${POD_SECURITY_CONTEXT}, or in this container's securityContext`,
    };
  });
};

const runAsUser: Check = ({ spec }) =>
  inSecurityContexts(spec, (context, path) =>
    context.runAsUser === 0
      ? {
          path: `${path}.runAsUser`,
          problem: 'running as UID 0 (root) is not allowed',
          fix: 'use a non-zero runAsUser, or remove it',
        }
      : undefined,
  );

// Values were checked by baseline; restricted also requires that a profile is set somewhere.
const seccomp: Check = linuxOnly(({ spec }) => {
  if (!isUnset(spec.securityContext?.seccompProfile)) return undefined;
  return inContainers(spec, (container, path) =>
    isUnset(container.securityContext?.seccompProfile)
      ? {
          path: `${path}.securityContext.seccompProfile.type`,
          problem: 'containers without a seccomp profile are not allowed',
          fix: `set seccompProfile.type: RuntimeDefault (or Localhost) in ${POD_SECURITY_CONTEXT}, or in this container's securityContext`,
        }
      : undefined,
  );
});

const capabilities: Check = linuxOnly(({ spec }) =>
  inContainers(spec, (container, path) => {
    const at = `${path}.securityContext.capabilities`;
    const granted = container.securityContext?.capabilities;
    if (!listOf(granted?.drop).includes('ALL')) {
      return {
        path: `${at}.drop`,
        problem: 'containers that keep their default capabilities are not allowed',
        fix: 'add ALL to capabilities.drop',
      };
    }
    return firstOf(listOf(granted?.add), (capability, i) =>
      capability === ADDABLE_CAPABILITY
        ? undefined
        : {
            path: indexPath(`${at}.add`, i),
            problem: `adding the capability ${quote(capability)} is not allowed`,
            fix: `remove it; only ${ADDABLE_CAPABILITY} may be added`,
          },
    );
  }),
);

export const RESTRICTED_ONLY_CHECKS: readonly Check[] = [
  volumeTypes,
  privilegeEscalation,
  runAsNonRoot,
  runAsUser,
  seccomp,
  capabilities,
];
