// A valid Tenant, config and accessors for the policy tests: each case starts from the valid Tenant
// and tweaks one thing, so the case reads as exactly what it breaks.
import type {
  V1ConfigMap,
  V1Container,
  V1Deployment,
  V1PodSecurityContext,
  V1PodSpec,
  V1SecurityContext,
} from '@kubernetes/client-node';
import { API_VERSION, KIND, type Tenant } from '../api/tenant.js';
import { DEFAULT_RESERVED_NAMESPACES } from '../operator/namespaces/rules.js';
import {
  builtInClass,
  type ClassPolicy,
  type PodSecurityLevel,
  type PolicyConfig,
} from '../operator/policy/config.js';

/** A Deployment that meets even the restricted Pod Security Standard. */
export function validDeployment(): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'team-a', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { 'example.com/owner': 'acme' } },
        spec: {
          securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'app',
              image: 'registry.example/web:1.2.3',
              ports: [{ containerPort: 8080 }],
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
              volumeMounts: [{ name: 'settings', mountPath: '/etc/web' }],
            },
          ],
          volumes: [{ name: 'settings', configMap: { name: 'settings' } }],
        },
      },
    },
  };
}

export function validConfigMaps(): V1ConfigMap[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: 'team-a' },
      data: { 'greeting.txt': 'hello' },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'extra', namespace: 'team-b', labels: { tier: 'cache' } },
      binaryData: { 'blob.bin': 'aGVsbG8=' },
    },
  ];
}

export function validTenant(): Tenant {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: { name: 'acme', generation: 3 },
    spec: { deployment: validDeployment(), configMaps: validConfigMaps() },
  };
}

/** A config's fields to change; podSecurity and the class's fields are set on the built-in class. */
export type ConfigTweaks = Partial<Omit<PolicyConfig, 'tenantClass'>> & {
  podSecurity?: PodSecurityLevel;
  tenantClass?: Partial<ClassPolicy>;
};

/** A PerTenant class's mode and namespace part, the tenant's namespace made from `nameTemplate`. */
export function perTenant(nameTemplate = '{name}'): Partial<ClassPolicy> {
  return { mode: 'PerTenant', namespace: { mode: 'PerTenant', nameTemplate, labels: {}, annotations: {} } };
}

export function testConfig(overrides: ConfigTweaks = {}): PolicyConfig {
  const { podSecurity, tenantClass, ...rest } = overrides;
  return {
    allowedNamespaces: ['team-a', 'team-b'],
    operatorNamespace: 'landlord',
    reservedNamespaces: DEFAULT_RESERVED_NAMESPACES,
    ...rest,
    tenantClass: { ...builtInClass(podSecurity ?? 'baseline'), ...tenantClass },
  };
}

function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`fixture has no ${what}`);
  return value;
}

export function deploymentOf(tenant: Tenant): V1Deployment {
  return present(tenant.spec?.deployment, 'deployment');
}

export function podSpecOf(tenant: Tenant): V1PodSpec {
  return present(deploymentOf(tenant).spec?.template.spec, 'pod spec');
}

export function containerOf(tenant: Tenant, index = 0): V1Container {
  return present(podSpecOf(tenant).containers[index], `container ${index}`);
}

export function configMapOf(tenant: Tenant, index: number): V1ConfigMap {
  return present(tenant.spec?.configMaps?.[index], `ConfigMap ${index}`);
}

/** The pod's securityContext, created when absent so a tweak can set one field. */
export function podContextOf(tenant: Tenant): V1PodSecurityContext {
  const spec = podSpecOf(tenant);
  spec.securityContext ??= {};
  return spec.securityContext;
}

/** A container's securityContext, created when absent. */
export function containerContextOf(container: V1Container): V1SecurityContext {
  container.securityContext ??= {};
  return container.securityContext;
}

/** Sets a field to a value its type does not allow: the tests feed the policy what a row could hold. */
export function setField(target: object, key: string, value: unknown): void {
  Reflect.set(target, key, value);
}

/** Removes a field the types call required. */
export function removeField(target: object, key: string): void {
  Reflect.deleteProperty(target, key);
}
