// The baseline Pod Security Standard: no known privilege escalation. Each check follows one control
// of https://kubernetes.io/docs/concepts/security/pod-security-standards/ as Kubernetes enforces it
// today; the list at the end keeps the order of that page. One module because the controls are one
// list to compare with that page.
import type { V1HTTPGetAction, V1TCPSocketAction } from '@kubernetes/client-node';
import { fieldPath, indexPath, isUnset, quote } from './json.js';
import {
  POD_SECURITY_CONTEXT,
  firstOf,
  inContainerContexts,
  inContainers,
  inSecurityContexts,
  listOf,
  type AnyContainer,
  type Check,
  type Violation,
} from './pss-pod.js';

const UNSET_OR_FALSE = 'remove it or set it to false';

/** Docker's default set: adding these gives a container nothing it does not already have. */
const BASELINE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
];

/** Sysctls namespaced to the pod, so setting them cannot touch the node or other pods. */
const SAFE_SYSCTLS: readonly string[] = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];

const SELINUX_TYPES: readonly string[] = [
  'container_t',
  'container_init_t',
  'container_kvm_t',
  'container_engine_t',
];
const PROFILE_TYPES: readonly string[] = ['RuntimeDefault', 'Localhost'];
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function isFilled(value: string | null | undefined): value is string {
  return !isUnset(value) && value !== '';
}

const hostProcess: Check = ({ spec }) =>
  inSecurityContexts(spec, (context, path) =>
    context.windowsOptions?.hostProcess === true
      ? {
          path: `${path}.windowsOptions.hostProcess`,
          problem: 'Windows HostProcess containers are not allowed',
          fix: UNSET_OR_FALSE,
        }
      : undefined,
  );

const HOST_NAMESPACES = [
  { field: 'hostNetwork', problem: "sharing the host's network namespace is not allowed" },
  { field: 'hostPID', problem: "sharing the host's process namespace is not allowed" },
  { field: 'hostIPC', problem: "sharing the host's IPC namespace is not allowed" },
] as const;

const hostNamespaces: Check = ({ spec }) =>
  firstOf(HOST_NAMESPACES, ({ field, problem }) =>
    spec[field] === true ? { path: `spec.${field}`, problem, fix: UNSET_OR_FALSE } : undefined,
  );

const privileged: Check = ({ spec }) =>
  inContainerContexts(spec, (context, path) =>
    context.privileged === true
      ? { path: `${path}.privileged`, problem: 'privileged containers are not allowed', fix: UNSET_OR_FALSE }
      : undefined,
  );

const capabilities: Check = ({ spec }) =>
  inContainerContexts(spec, (context, path) =>
    firstOf(listOf(context.capabilities?.add), (capability, i) =>
      BASELINE_CAPABILITIES.includes(capability)
        ? undefined
        : {
            path: indexPath(`${path}.capabilities.add`, i),
            problem: `adding the capability ${quote(capability)} is not allowed`,
            fix: `remove it; a container may add only ${BASELINE_CAPABILITIES.join(', ')}`,
          },
    ),
  );

const hostPathVolumes: Check = ({ spec }) =>
  firstOf(listOf(spec.volumes), (volume, i) =>
    isUnset(volume.hostPath)
      ? undefined
      : {
          path: `${indexPath('spec.volumes', i)}.hostPath`,
          problem: 'hostPath volumes are not allowed',
          fix: 'use a configMap, secret, emptyDir or persistentVolumeClaim volume instead',
        },
  );

const hostPorts: Check = ({ spec }) =>
  inContainers(spec, (container, path) =>
    firstOf(listOf(container.ports), (port, i) =>
      isUnset(port.hostPort) || port.hostPort === 0
        ? undefined
        : {
            path: `${indexPath(`${path}.ports`, i)}.hostPort`,
            problem: 'host ports are not allowed',
            fix: 'remove hostPort (or set it to 0) and reach the pod through a Service',
          },
    ),
  );

interface Handler {
  httpGet?: Pick<V1HTTPGetAction, 'host'> | null;
  tcpSocket?: Pick<V1TCPSocketAction, 'host'> | null;
}

function handlersOf(container: AnyContainer, path: string): [string, Handler | null | undefined][] {
  return [
    [`${path}.livenessProbe`, container.livenessProbe],
    [`${path}.readinessProbe`, container.readinessProbe],
    [`${path}.startupProbe`, container.startupProbe],
    [`${path}.lifecycle.postStart`, container.lifecycle?.postStart],
    [`${path}.lifecycle.preStop`, container.lifecycle?.preStop],
  ];
}

function handlerHost([path, handler]: [string, Handler | null | undefined]): Violation | undefined {
  const action = (['httpGet', 'tcpSocket'] as const).find((name) => isFilled(handler?.[name]?.host));
  if (action === undefined) return undefined;
  return {
    path: `${path}.${action}.host`,
    problem: 'probe and lifecycle hook hosts are not allowed',
    fix: "remove host, so the check reaches the pod's own IP",
  };
}

const probeHosts: Check = ({ spec }) =>
  inContainers(spec, (container, path) => firstOf(handlersOf(container, path), handlerHost));

function profileType(
  profile: { type: string } | null | undefined,
  path: string,
  what: 'AppArmor' | 'seccomp',
): Violation | undefined {
  if (isUnset(profile) || PROFILE_TYPES.includes(profile.type)) return undefined;
  return {
    path: `${path}.type`,
    problem: `the ${what} profile type ${quote(profile.type)} is not allowed`,
    fix: 'use RuntimeDefault or Localhost, or remove it',
  };
}

function isAllowedAppArmorAnnotation(value: string): boolean {
  return value === '' || value === 'runtime/default' || value.startsWith('localhost/');
}

function appArmorAnnotations(annotations: Record<string, string>): Violation | undefined {
  // Sorted, so the same manifest always names the same annotation whatever order it arrived in.
  const key = Object.keys(annotations)
    .sort()
    .find(
      (k) => k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !isAllowedAppArmorAnnotation(annotations[k] ?? ''),
    );
  if (key === undefined) return undefined;
  return {
    path: fieldPath('metadata.annotations', key),
    problem: `the AppArmor profile ${quote(annotations[key] ?? '')} is not allowed`,
    fix: 'use runtime/default or localhost/<profile>, or remove the annotation',
  };
}

const appArmor: Check = ({ spec, annotations }) =>
  inSecurityContexts(spec, (context, path) =>
    profileType(context.appArmorProfile, `${path}.appArmorProfile`, 'AppArmor'),
  ) ?? appArmorAnnotations(annotations);

const seLinux: Check = ({ spec }) =>
  inSecurityContexts(spec, (context, path) => {
    const options = context.seLinuxOptions;
    const at = `${path}.seLinuxOptions`;
    if (isUnset(options)) return undefined;
    if (isFilled(options.type) && !SELINUX_TYPES.includes(options.type)) {
      return {
        path: `${at}.type`,
        problem: `the SELinux type ${quote(options.type)} is not allowed`,
        fix: `use ${SELINUX_TYPES.join(', ')}, or remove it`,
      };
    }
    const field = isFilled(options.user) ? 'user' : isFilled(options.role) ? 'role' : undefined;
    return field === undefined
      ? undefined
      : { path: `${at}.${field}`, problem: `setting the SELinux ${field} is not allowed`, fix: 'remove it' };
  });

const procMount: Check = ({ spec }) =>
  inContainerContexts(spec, (context, path) =>
    isUnset(context.procMount) || context.procMount === 'Default'
      ? undefined
      : {
          path: `${path}.procMount`,
          problem: `the /proc mount type ${quote(context.procMount)} is not allowed`,
          fix: 'remove it or set it to Default',
        },
  );

const seccomp: Check = ({ spec }) =>
  inSecurityContexts(spec, (context, path) =>
    profileType(context.seccompProfile, `${path}.seccompProfile`, 'seccomp'),
  );

const sysctls: Check = ({ spec }) =>
  firstOf(listOf(spec.securityContext?.sysctls), (sysctl, i) =>
    SAFE_SYSCTLS.includes(sysctl.name)
      ? undefined
      : {
          path: `${indexPath(`${POD_SECURITY_CONTEXT}.sysctls`, i)}.name`,
          problem: `the sysctl ${quote(sysctl.name)} is not allowed`,
          fix: `remove it; the safe sysctls are ${SAFE_SYSCTLS.join(', ')}`,
        },
  );

export const BASELINE_CHECKS: readonly Check[] = [
  hostProcess,
  hostNamespaces,
  privileged,
  capabilities,
  hostPathVolumes,
  hostPorts,
  probeHosts,
  appArmor,
  seLinux,
  procMount,
  seccomp,
  sysctls,
];
