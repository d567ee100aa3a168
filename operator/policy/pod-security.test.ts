// The Pod Security Standards checks, one case per control and level, each starting from a valid
// Tenant and breaking one thing. The cases follow the standard's own list, so they stay in one file.
import type { Tenant } from '../../api/tenant.js';
import { describe, expect, it } from 'vitest';
import {
  containerContextOf,
  containerOf,
  deploymentOf,
  podContextOf,
  podSpecOf,
  setField,
  perTenant,
  testConfig,
  validTenant,
} from '../../testing/policy.js';
import { builtInClass, evaluateTenant, type PodSecurityLevel } from './index.js';

interface Case {
  name: string;
  tweak: (tenant: Tenant) => void;
  /** The field refused, relative to spec.deployment.spec.template. */
  path: string;
  says: string;
}

const TEMPLATE = 'spec.deployment.spec.template';

function evaluate(tweak: (tenant: Tenant) => void, podSecurity: PodSecurityLevel) {
  const tenant = validTenant();
  tweak(tenant);
  // PerTenant: the Shared-mode rule on references (Secrets, PVCs) would otherwise hide what these
  // check; and a class that allows ephemeral volumes, for the same reason.
  const limits = { ...builtInClass().limits, allowEphemeralVolumes: true };
  return evaluateTenant(tenant, testConfig({ podSecurity, tenantClass: { ...perTenant('team-a'), limits } }));
}

function expectRefused(
  tweak: (tenant: Tenant) => void,
  level: PodSecurityLevel,
  path: string,
  says: string,
): void {
  const result = evaluate(tweak, level);
  expect(result.ok ? 'accepted' : result.refusal.reason).toBe('PodSecurityViolation');
  if (result.ok) return;
  expect(result.refusal.message).toContain(`Deployment team-a/web: ${TEMPLATE}.${path}: ${says}`);
  expect(result.refusal.message).toContain(`by the ${level} Pod Security Standard; `);
}

function expectAccepted(tweak: (tenant: Tenant) => void, level: PodSecurityLevel): void {
  const result = evaluate(tweak, level);
  expect(result.ok ? 'accepted' : result.refusal.message).toBe('accepted');
}

/** A second container and an init container, so a case can break a rule in any of them. */
function withSidecars(tenant: Tenant): void {
  const spec = podSpecOf(tenant);
  const secure = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
  spec.containers.push({
    name: 'sidecar',
    image: 'registry.example/proxy:1',
    securityContext: { ...secure },
  });
  spec.initContainers = [{ name: 'init', image: 'registry.example/init:1', securityContext: { ...secure } }];
}

function initContainerOf(tenant: Tenant) {
  withSidecars(tenant);
  const init = podSpecOf(tenant).initContainers?.[0];
  if (init === undefined) throw new Error('no init container');
  return init;
}

const baselineViolations: Case[] = [
  {
    name: 'a HostProcess pod',
    tweak: (t) => (podContextOf(t).windowsOptions = { hostProcess: true }),
    path: 'spec.securityContext.windowsOptions.hostProcess',
    says: 'Windows HostProcess containers are not allowed',
  },
  {
    name: 'a HostProcess container',
    tweak: (t) => (containerContextOf(containerOf(t)).windowsOptions = { hostProcess: true }),
    path: 'spec.containers[0].securityContext.windowsOptions.hostProcess',
    says: 'Windows HostProcess containers are not allowed',
  },
  {
    name: 'hostNetwork',
    tweak: (t) => (podSpecOf(t).hostNetwork = true),
    path: 'spec.hostNetwork',
    says: "sharing the host's network namespace is not allowed",
  },
  {
    name: 'hostPID',
    tweak: (t) => (podSpecOf(t).hostPID = true),
    path: 'spec.hostPID',
    says: "sharing the host's process namespace is not allowed",
  },
  {
    name: 'hostIPC',
    tweak: (t) => (podSpecOf(t).hostIPC = true),
    path: 'spec.hostIPC',
    says: "sharing the host's IPC namespace is not allowed",
  },
  {
    name: 'a privileged container',
    tweak: (t) => (containerContextOf(containerOf(t)).privileged = true),
    path: 'spec.containers[0].securityContext.privileged',
    says: 'privileged containers are not allowed',
  },
  {
    name: 'a privileged second container',
    tweak: (t) => {
      withSidecars(t);
      containerContextOf(containerOf(t, 1)).privileged = true;
    },
    path: 'spec.containers[1].securityContext.privileged',
    says: 'privileged containers are not allowed',
  },
  {
    name: 'a privileged init container',
    tweak: (t) => (containerContextOf(initContainerOf(t)).privileged = true),
    path: 'spec.initContainers[0].securityContext.privileged',
    says: 'privileged containers are not allowed',
  },
  {
    name: 'a privileged ephemeral container',
    tweak: (t) =>
      (podSpecOf(t).ephemeralContainers = [
        { name: 'debug', image: 'busybox', securityContext: { privileged: true } },
      ]),
    path: 'spec.ephemeralContainers[0].securityContext.privileged',
    says: 'privileged containers are not allowed',
  },
  {
    name: 'adding SYS_ADMIN',
    tweak: (t) =>
      (containerContextOf(containerOf(t)).capabilities = {
        drop: ['ALL'],
        add: ['NET_BIND_SERVICE', 'SYS_ADMIN'],
      }),
    path: 'spec.containers[0].securityContext.capabilities.add[1]',
    says: 'adding the capability "SYS_ADMIN" is not allowed',
  },
  {
    name: 'adding NET_RAW to an init container',
    tweak: (t) => (containerContextOf(initContainerOf(t)).capabilities = { drop: ['ALL'], add: ['NET_RAW'] }),
    path: 'spec.initContainers[0].securityContext.capabilities.add[0]',
    says: 'adding the capability "NET_RAW" is not allowed',
  },
  {
    name: 'a hostPath volume',
    tweak: (t) => podSpecOf(t).volumes?.push({ name: 'host', hostPath: { path: '/' } }),
    path: 'spec.volumes[1].hostPath',
    says: 'hostPath volumes are not allowed',
  },
  {
    name: 'a host port',
    tweak: (t) => (containerOf(t).ports = [{ containerPort: 8080 }, { containerPort: 80, hostPort: 80 }]),
    path: 'spec.containers[0].ports[1].hostPort',
    says: 'host ports are not allowed',
  },
  {
    name: 'a host port on an init container',
    tweak: (t) => (initContainerOf(t).ports = [{ containerPort: 53, hostPort: 53 }]),
    path: 'spec.initContainers[0].ports[0].hostPort',
    says: 'host ports are not allowed',
  },
  {
    name: 'a liveness probe with a host',
    tweak: (t) => (containerOf(t).livenessProbe = { httpGet: { host: '10.0.0.1', port: 80 } }),
    path: 'spec.containers[0].livenessProbe.httpGet.host',
    says: 'probe and lifecycle hook hosts are not allowed',
  },
  {
    name: 'a readiness probe with a TCP host',
    tweak: (t) => (containerOf(t).readinessProbe = { tcpSocket: { host: 'db', port: 5432 } }),
    path: 'spec.containers[0].readinessProbe.tcpSocket.host',
    says: 'probe and lifecycle hook hosts are not allowed',
  },
  {
    name: 'a startup probe with a host',
    tweak: (t) => (containerOf(t).startupProbe = { httpGet: { host: 'metadata', port: 80 } }),
    path: 'spec.containers[0].startupProbe.httpGet.host',
    says: 'probe and lifecycle hook hosts are not allowed',
  },
  {
    name: 'a postStart hook with a host',
    tweak: (t) =>
      (containerOf(t).lifecycle = { postStart: { httpGet: { host: '169.254.169.254', port: 80 } } }),
    path: 'spec.containers[0].lifecycle.postStart.httpGet.host',
    says: 'probe and lifecycle hook hosts are not allowed',
  },
  {
    name: 'a preStop hook with a TCP host',
    tweak: (t) => (containerOf(t).lifecycle = { preStop: { tcpSocket: { host: 'x', port: 1 } } }),
    path: 'spec.containers[0].lifecycle.preStop.tcpSocket.host',
    says: 'probe and lifecycle hook hosts are not allowed',
  },
  {
    name: 'an unconfined AppArmor pod',
    tweak: (t) => (podContextOf(t).appArmorProfile = { type: 'Unconfined' }),
    path: 'spec.securityContext.appArmorProfile.type',
    says: 'the AppArmor profile type "Unconfined" is not allowed',
  },
  {
    name: 'an unconfined AppArmor container',
    tweak: (t) => (containerContextOf(containerOf(t)).appArmorProfile = { type: 'Unconfined' }),
    path: 'spec.containers[0].securityContext.appArmorProfile.type',
    says: 'the AppArmor profile type "Unconfined" is not allowed',
  },
  {
    name: 'an unconfined AppArmor annotation',
    tweak: (t) =>
      setField(deploymentOf(t).spec?.template.metadata ?? {}, 'annotations', {
        'container.apparmor.security.beta.kubernetes.io/app': 'unconfined',
      }),
    path: 'metadata.annotations["container.apparmor.security.beta.kubernetes.io/app"]',
    says: 'the AppArmor profile "unconfined" is not allowed',
  },
  {
    name: 'an SELinux type of spc_t',
    tweak: (t) => (podContextOf(t).seLinuxOptions = { type: 'spc_t' }),
    path: 'spec.securityContext.seLinuxOptions.type',
    says: 'the SELinux type "spc_t" is not allowed',
  },
  {
    name: 'an SELinux user',
    tweak: (t) => (containerContextOf(containerOf(t)).seLinuxOptions = { user: 'system_u' }),
    path: 'spec.containers[0].securityContext.seLinuxOptions.user',
    says: 'setting the SELinux user is not allowed',
  },
  {
    name: 'an SELinux role',
    tweak: (t) =>
      (containerContextOf(containerOf(t)).seLinuxOptions = { type: 'container_t', role: 'system_r' }),
    path: 'spec.containers[0].securityContext.seLinuxOptions.role',
    says: 'setting the SELinux role is not allowed',
  },
  {
    name: 'an unmasked /proc',
    tweak: (t) => (containerContextOf(containerOf(t)).procMount = 'Unmasked'),
    path: 'spec.containers[0].securityContext.procMount',
    says: 'the /proc mount type "Unmasked" is not allowed',
  },
  {
    name: 'an unconfined seccomp pod',
    tweak: (t) => (podContextOf(t).seccompProfile = { type: 'Unconfined' }),
    path: 'spec.securityContext.seccompProfile.type',
    says: 'the seccomp profile type "Unconfined" is not allowed',
  },
  {
    name: 'an unconfined seccomp container',
    tweak: (t) => (containerContextOf(containerOf(t)).seccompProfile = { type: 'Unconfined' }),
    path: 'spec.containers[0].securityContext.seccompProfile.type',
    says: 'the seccomp profile type "Unconfined" is not allowed',
  },
  {
    name: 'an unsafe sysctl',
    tweak: (t) =>
      (podContextOf(t).sysctls = [
        { name: 'net.ipv4.tcp_syncookies', value: '1' },
        { name: 'kernel.msgmax', value: '65536' },
      ]),
    path: 'spec.securityContext.sysctls[1].name',
    says: 'the sysctl "kernel.msgmax" is not allowed',
  },
];

describe('the baseline Pod Security Standard', () => {
  it.each(baselineViolations)('refuses $name', ({ tweak, path, says }) =>
    expectRefused(tweak, 'baseline', path, says),
  );
  it.each(baselineViolations)('refuses $name under restricted too', ({ tweak, path, says }) =>
    expectRefused(tweak, 'restricted', path, says),
  );
  it.each(baselineViolations)('lets $name through when privileged', ({ tweak }) =>
    expectAccepted(tweak, 'privileged'),
  );

  it('says what the task asks, word for word', () => {
    const result = evaluate((t) => (containerContextOf(containerOf(t)).privileged = true), 'baseline');
    expect(result.ok || result.refusal.message).toBe(
      `Deployment team-a/web: ${TEMPLATE}.spec.containers[0].securityContext.privileged: privileged containers are not allowed by the baseline Pod Security Standard; remove it or set it to false`,
    );
  });

  it.each<[string, (t: Tenant) => void]>([
    [
      'the default capabilities added',
      (t) => (containerContextOf(containerOf(t)).capabilities = { add: ['CHOWN', 'KILL', 'SETUID'] }),
    ],
    ['hostPort 0', (t) => (containerOf(t).ports = [{ containerPort: 80, hostPort: 0 }])],
    [
      'false host namespaces and privileged',
      (t) => {
        Object.assign(podSpecOf(t), { hostNetwork: false, hostPID: false, hostIPC: false });
        containerContextOf(containerOf(t)).privileged = false;
      },
    ],
    [
      'a Localhost seccomp profile',
      (t) => (podContextOf(t).seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' }),
    ],
    [
      'AppArmor RuntimeDefault and Localhost',
      (t) => {
        podContextOf(t).appArmorProfile = { type: 'RuntimeDefault' };
        containerContextOf(containerOf(t)).appArmorProfile = {
          type: 'Localhost',
          localhostProfile: 'k8s-web',
        };
      },
    ],
    [
      'allowed AppArmor annotations',
      (t) =>
        setField(deploymentOf(t).spec?.template.metadata ?? {}, 'annotations', {
          'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/init': 'localhost/k8s-web',
        }),
    ],
    [
      'allowed SELinux types and a level',
      (t) => {
        podContextOf(t).seLinuxOptions = { type: 'container_t', level: 's0:c123,c456' };
        containerContextOf(containerOf(t)).seLinuxOptions = {
          type: 'container_engine_t',
          user: '',
          role: '',
        };
      },
    ],
    ['procMount Default', (t) => (containerContextOf(containerOf(t)).procMount = 'Default')],
    [
      'safe sysctls',
      (t) =>
        (podContextOf(t).sysctls = [
          { name: 'net.ipv4.ip_local_port_range', value: '1024 65000' },
          { name: 'net.ipv4.tcp_keepalive_probes', value: '5' },
        ]),
    ],
    ['a probe without a host', (t) => (containerOf(t).livenessProbe = { httpGet: { host: '', port: 8080 } })],
    [
      'no securityContext at all',
      (t) => {
        setField(podSpecOf(t), 'securityContext', undefined);
        setField(containerOf(t), 'securityContext', undefined);
      },
    ],
  ])('allows %s', (_name, tweak) => expectAccepted(tweak, 'baseline'));

  it('reports the first rule broken, in the Standard order', () => {
    expectRefused(
      (t) => {
        containerContextOf(containerOf(t)).privileged = true;
        podSpecOf(t).hostIPC = true;
      },
      'baseline',
      'spec.hostIPC',
      "sharing the host's IPC namespace",
    );
  });

  it('reports containers before init containers', () => {
    expectRefused(
      (t) => {
        containerContextOf(initContainerOf(t)).privileged = true;
        containerContextOf(containerOf(t, 1)).privileged = true;
      },
      'baseline',
      'spec.containers[1].securityContext.privileged',
      'privileged containers',
    );
  });
});

const restrictedViolations: Case[] = [
  {
    name: 'an nfs volume',
    tweak: (t) => podSpecOf(t).volumes?.push({ name: 'share', nfs: { server: 'nfs', path: '/' } }),
    path: 'spec.volumes[1].nfs',
    says: 'the volume type "nfs" is not allowed',
  },
  {
    name: 'a gitRepo volume',
    tweak: (t) =>
      podSpecOf(t).volumes?.push({ name: 'src', gitRepo: { repository: 'https://example.com/x.git' } }),
    path: 'spec.volumes[1].gitRepo',
    says: 'the volume type "gitRepo" is not allowed',
  },
  {
    name: 'an image volume',
    tweak: (t) =>
      podSpecOf(t).volumes?.push({ name: 'data', image: { reference: 'registry.example/data:1' } }),
    path: 'spec.volumes[1].image',
    says: 'the volume type "image" is not allowed',
  },
  {
    name: 'no allowPrivilegeEscalation',
    tweak: (t) => setField(containerContextOf(containerOf(t)), 'allowPrivilegeEscalation', undefined),
    path: 'spec.containers[0].securityContext.allowPrivilegeEscalation',
    says: 'containers that allow privilege escalation are not allowed',
  },
  {
    name: 'allowPrivilegeEscalation true',
    tweak: (t) => (containerContextOf(containerOf(t)).allowPrivilegeEscalation = true),
    path: 'spec.containers[0].securityContext.allowPrivilegeEscalation',
    says: 'containers that allow privilege escalation are not allowed',
  },
  {
    name: 'an init container that may escalate',
    tweak: (t) => setField(containerContextOf(initContainerOf(t)), 'allowPrivilegeEscalation', null),
    path: 'spec.initContainers[0].securityContext.allowPrivilegeEscalation',
    says: 'containers that allow privilege escalation',
  },
  {
    name: 'runAsNonRoot false on the pod',
    tweak: (t) => (podContextOf(t).runAsNonRoot = false),
    path: 'spec.securityContext.runAsNonRoot',
    says: 'running as root is not allowed',
  },
  {
    name: 'runAsNonRoot false on a container',
    tweak: (t) => (containerContextOf(containerOf(t)).runAsNonRoot = false),
    path: 'spec.containers[0].securityContext.runAsNonRoot',
    says: 'running as root is not allowed',
  },
  {
    name: 'runAsNonRoot set nowhere',
    tweak: (t) => setField(podContextOf(t), 'runAsNonRoot', undefined),
    path: 'spec.containers[0].securityContext.runAsNonRoot',
    says: 'containers that may run as root are not allowed',
  },
  {
    name: 'runAsNonRoot missing on one container',
    tweak: (t) => {
      setField(podContextOf(t), 'runAsNonRoot', undefined);
      withSidecars(t);
      containerContextOf(containerOf(t, 0)).runAsNonRoot = true;
      containerContextOf(containerOf(t, 1)).runAsNonRoot = true;
    },
    path: 'spec.initContainers[0].securityContext.runAsNonRoot',
    says: 'containers that may run as root',
  },
  {
    name: 'runAsUser 0 on the pod',
    tweak: (t) => (podContextOf(t).runAsUser = 0),
    path: 'spec.securityContext.runAsUser',
    says: 'running as UID 0 (root) is not allowed',
  },
  {
    name: 'runAsUser 0 on a container',
    tweak: (t) => (containerContextOf(containerOf(t)).runAsUser = 0),
    path: 'spec.containers[0].securityContext.runAsUser',
    says: 'running as UID 0 (root) is not allowed',
  },
  {
    name: 'no seccomp profile anywhere',
    tweak: (t) => setField(podContextOf(t), 'seccompProfile', undefined),
    path: 'spec.containers[0].securityContext.seccompProfile.type',
    says: 'containers without a seccomp profile are not allowed',
  },
  {
    name: 'a container without a seccomp profile',
    tweak: (t) => {
      setField(podContextOf(t), 'seccompProfile', null);
      withSidecars(t);
      containerContextOf(containerOf(t)).seccompProfile = { type: 'RuntimeDefault' };
    },
    path: 'spec.containers[1].securityContext.seccompProfile.type',
    says: 'containers without a seccomp profile',
  },
  {
    name: 'capabilities not dropped',
    tweak: (t) => (containerContextOf(containerOf(t)).capabilities = { drop: ['NET_RAW'] }),
    path: 'spec.containers[0].securityContext.capabilities.drop',
    says: 'containers that keep their default capabilities are not allowed',
  },
  {
    name: 'no securityContext on a container',
    tweak: (t) => setField(containerOf(t), 'securityContext', undefined),
    path: 'spec.containers[0].securityContext.allowPrivilegeEscalation',
    says: 'containers that allow privilege escalation',
  },
  {
    name: 'adding a default capability',
    tweak: (t) => (containerContextOf(containerOf(t)).capabilities = { drop: ['ALL'], add: ['CHOWN'] }),
    path: 'spec.containers[0].securityContext.capabilities.add[0]',
    says: 'adding the capability "CHOWN" is not allowed',
  },
];

describe('the restricted Pod Security Standard', () => {
  it.each(restrictedViolations)('refuses $name', ({ tweak, path, says }) =>
    expectRefused(tweak, 'restricted', path, says),
  );
  it.each(restrictedViolations)('leaves $name to restricted: baseline allows it', ({ tweak }) =>
    expectAccepted(tweak, 'baseline'),
  );

  it.each<[string, (t: Tenant) => void]>([
    [
      'adding NET_BIND_SERVICE',
      (t) => (containerContextOf(containerOf(t)).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }),
    ],
    [
      'runAsNonRoot on every container instead of the pod',
      (t) => {
        setField(podContextOf(t), 'runAsNonRoot', undefined);
        containerContextOf(containerOf(t)).runAsNonRoot = true;
      },
    ],
    [
      'seccomp on every container instead of the pod',
      (t) => {
        setField(podContextOf(t), 'seccompProfile', undefined);
        containerContextOf(containerOf(t)).seccompProfile = { type: 'Localhost', localhostProfile: 'p.json' };
      },
    ],
    [
      'a non-root UID',
      (t) => {
        podContextOf(t).runAsUser = 1000;
        containerContextOf(containerOf(t)).runAsUser = 1001;
      },
    ],
    [
      'every allowed volume type',
      (t) =>
        (podSpecOf(t).volumes = [
          { name: 'a', configMap: { name: 'settings' } },
          { name: 'b', csi: { driver: 'csi.example' } },
          { name: 'c', downwardAPI: {} },
          { name: 'd', emptyDir: {} },
          { name: 'e', ephemeral: {} },
          { name: 'f', persistentVolumeClaim: { claimName: 'data' } },
          { name: 'g', projected: { sources: [] } },
          { name: 'h', secret: { secretName: 'creds' } },
          { name: 'i' },
        ]),
    ],
    [
      'a Windows pod without the Linux-only settings',
      (t) => {
        podSpecOf(t).os = { name: 'windows' };
        setField(podContextOf(t), 'seccompProfile', undefined);
        setField(containerOf(t), 'securityContext', { runAsNonRoot: true });
      },
    ],
  ])('allows %s', (_name, tweak) => expectAccepted(tweak, 'restricted'));

  it('still holds a Windows pod to runAsNonRoot', () => {
    expectRefused(
      (t) => {
        podSpecOf(t).os = { name: 'windows' };
        podContextOf(t).runAsNonRoot = false;
      },
      'restricted',
      'spec.securityContext.runAsNonRoot',
      'running as root',
    );
  });

  it('checks baseline rules before its own', () => {
    expectRefused(
      (t) => {
        podSpecOf(t).volumes?.push({ name: 'host', hostPath: { path: '/var/run' } });
        setField(containerContextOf(containerOf(t)), 'allowPrivilegeEscalation', undefined);
      },
      'restricted',
      'spec.volumes[1].hostPath',
      'hostPath volumes are not allowed',
    );
  });

  it('falls back to baseline for a level it does not know', () => {
    const tenant = validTenant();
    podSpecOf(tenant).hostNetwork = true;
    const result = evaluateTenant(tenant, testConfig({ podSecurity: 'Restricted' as PodSecurityLevel }));
    expect(result.ok ? 'accepted' : result.refusal.reason).toBe('PodSecurityViolation');
  });
});
