// The operator's own settings (environment variables); the common ones are in runtime/component.ts.
import { COMMON_SETTINGS, type CommonSettings } from '../runtime/component.js';
import { ConfigError, type SettingSpec } from '../runtime/config.js';
import { queueSettings } from '../runtime/queue-settings.js';
import { DEFAULT_RESERVED_NAMESPACES } from './namespaces/rules.js';
import { builtInClass, type PodSecurityLevel, type PolicyConfig } from './policy/index.js';
import { TEMPLATE_REVISION } from './workload/template-revision.js';

export const OPERATOR_SETTINGS = {
  concurrency: {
    env: 'LANDLORD_OPERATOR_CONCURRENCY',
    description: 'Tenants reconciled at once.',
    default: '32',
    schema: { type: 'integer', minimum: 1, maximum: 256 },
  },
  allowedNamespaces: {
    env: 'LANDLORD_ALLOWED_NAMESPACES',
    description:
      'Comma-separated namespaces children may live in. With only this set, the operator watches just these namespaces (RBAC may then be per namespace). Empty: any namespace but the system ones and its own.',
    default: '',
    schema: {
      type: 'string',
      pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(,[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$',
    },
  },
  allowedNamespacePattern: {
    env: 'LANDLORD_ALLOWED_NAMESPACE_PATTERN',
    description: 'A regular expression namespaces may match instead (e.g. ^tenant-). Empty: none.',
    default: '',
    schema: { type: 'string' },
  },
  reservedNamespaces: {
    env: 'LANDLORD_OPERATOR_RESERVED_NAMESPACES',
    description:
      'Comma-separated globs (* is any run of characters) of namespace names no PerTenant tenant may take: the platform uses them or will. kube-* is always reserved. Setting this replaces the default list.',
    default: DEFAULT_RESERVED_NAMESPACES.join(','),
    schema: {
      type: 'string',
      pattern: '^([a-z0-9*]([-a-z0-9*]*[a-z0-9*])?(,[a-z0-9*]([-a-z0-9*]*[a-z0-9*])?)*)?$',
    },
  },
  podSecurity: {
    env: 'LANDLORD_POD_SECURITY',
    description: 'Pod Security Standard every pod template must meet.',
    default: 'baseline',
    schema: { type: 'string', enum: ['privileged', 'baseline', 'restricted'] },
  },
  builtInClass: {
    env: 'LANDLORD_OPERATOR_BUILT_IN_CLASS',
    description:
      'true: a Tenant whose row names no class, while no TenantClass is the default, gets the built-in class (Shared, any allowed namespace). false: it waits (NoDefaultClass) until a class is annotated the default.',
    default: 'false',
    schema: { type: 'boolean' },
  },
  classRolloutPerSecond: {
    env: 'LANDLORD_OPERATOR_CLASS_ROLLOUT_PER_SECOND',
    description:
      'How many Tenants a TenantClass change reaches per second: its Tenants are reconciled spread out, not in one burst.',
    default: '50',
    schema: { type: 'integer', minimum: 1, maximum: 10000 },
  },
  upgradeRollouts: {
    env: 'LANDLORD_OPERATOR_UPGRADE_ROLLOUTS',
    description:
      'How many Deployments may roll out at once because a new release changed what the operator adds to every pod template (not because their Tenant changed): a number, or a share of the Tenants such as 5%; at least 1. The others keep their running pods until a slot frees (TemplateUpgradePending).',
    default: '5%',
    schema: { type: 'string', pattern: '^([1-9][0-9]{0,5}|([1-9][0-9]?|100)%)$' },
  },
  templateRevision: {
    env: 'LANDLORD_OPERATOR_TEMPLATE_REVISION',
    description:
      "For tests of upgrades only: the revision of the operator's own pod template additions it writes, as an older release would (1: 0.1.0's). Leave unset.",
    default: String(TEMPLATE_REVISION),
    schema: { type: 'integer', minimum: 1, maximum: TEMPLATE_REVISION },
  },
  secretSourceNamespaces: {
    env: 'LANDLORD_SECRET_SOURCE_NAMESPACES',
    description:
      "Comma-separated namespaces a TenantClass's secrets may copy from: the operator caches every Secret there, values included (a copy anywhere else is cached without its values). A source elsewhere is refused: SecretSourceNotAllowed.",
    default: 'platform-secrets',
    schema: {
      type: 'string',
      pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(,[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$',
    },
  },
  poolRefillPerSecond: {
    env: 'LANDLORD_OPERATOR_POOL_REFILL_PER_SECOND',
    description:
      "How many warm pool members the operator makes per second, over all classes: refills run beside tenants' reconciles, never before them.",
    default: '5',
    schema: { type: 'integer', minimum: 1, maximum: 1000 },
  },
  ...queueSettings('OPERATOR', { resync: 'reconciled', failing: 'a failing Tenant', retryBaseMs: 500 }),
} as const satisfies Record<string, SettingSpec>;

export interface OperatorSettings extends CommonSettings {
  concurrency: number;
  allowedNamespaces: string;
  allowedNamespacePattern: string;
  reservedNamespaces: string;
  podSecurity: PodSecurityLevel;
  builtInClass: boolean;
  classRolloutPerSecond: number;
  upgradeRollouts: string;
  templateRevision: number;
  secretSourceNamespaces: string;
  poolRefillPerSecond: number;
  resyncSeconds: number;
  retryBaseMs: number;
  retryMaxSeconds: number;
}

function namespaceList(settings: Pick<OperatorSettings, 'allowedNamespaces'>): string[] {
  return commaList(settings.allowedNamespaces);
}

function commaList(text: string): string[] {
  return text.split(',').filter((item) => item !== '');
}

/**
 * Where the operator lists and watches children: just the allowed namespaces when they are listed
 * (RBAC may then be per namespace), else the whole cluster (undefined).
 */
export function watchScopes(
  settings: Pick<OperatorSettings, 'allowedNamespaces' | 'allowedNamespacePattern'>,
): (string | undefined)[] {
  const list = namespaceList(settings);
  return list.length > 0 && settings.allowedNamespacePattern === '' ? list : [undefined];
}

/** Checked at start-up with the rest of the settings: a bad pattern is a configuration error (ConfigError). */
export function namespacePattern(
  settings: Pick<OperatorSettings, 'allowedNamespacePattern'>,
): RegExp | undefined {
  if (settings.allowedNamespacePattern === '') return undefined;
  try {
    return new RegExp(settings.allowedNamespacePattern);
  } catch (err) {
    throw new ConfigError(
      `LANDLORD_ALLOWED_NAMESPACE_PATTERN="${settings.allowedNamespacePattern}": ${(err as Error).message}`,
      {
        cause: err,
      },
    );
  }
}

/**
 * The settings the policy reads, with the operator's variables and defaults. `landlord validate`
 * loads just these, so a row is judged offline exactly as the running operator would judge it.
 */
export const POLICY_SETTINGS = {
  namespace: COMMON_SETTINGS.namespace,
  allowedNamespaces: OPERATOR_SETTINGS.allowedNamespaces,
  allowedNamespacePattern: OPERATOR_SETTINGS.allowedNamespacePattern,
  reservedNamespaces: OPERATOR_SETTINGS.reservedNamespaces,
  podSecurity: OPERATOR_SETTINGS.podSecurity,
  builtInClass: OPERATOR_SETTINGS.builtInClass,
  secretSourceNamespaces: OPERATOR_SETTINGS.secretSourceNamespaces,
} as const satisfies Record<string, SettingSpec>;

export type PolicySettings = Pick<
  OperatorSettings,
  | 'namespace'
  | 'allowedNamespaces'
  | 'allowedNamespacePattern'
  | 'reservedNamespaces'
  | 'podSecurity'
  | 'builtInClass'
  | 'secretSourceNamespaces'
>;

/** The namespaces a class's secrets may copy from, each watched whole. */
function secretSourceNamespaces(settings: Pick<OperatorSettings, 'secretSourceNamespaces'>): string[] {
  return commaList(settings.secretSourceNamespaces);
}

/** What the policy allows under these settings; throws a ConfigError for a bad namespace pattern. */
export function policyConfig(settings: PolicySettings): PolicyConfig {
  return {
    allowedNamespaces: namespaceList(settings),
    allowedNamespacePattern: namespacePattern(settings),
    operatorNamespace: settings.namespace,
    reservedNamespaces: commaList(settings.reservedNamespaces),
    // The built-in class; a Tenant's own TenantClass replaces it in each reconcile.
    tenantClass: builtInClass(settings.podSecurity),
    useBuiltInClass: settings.builtInClass,
    secretSourceNamespaces: secretSourceNamespaces(settings),
  };
}
