// The namespace a PerTenant class gives a tenant: its name template with "{name}" filled in. The
// tenant gets that namespace for itself, so it must be one nobody else has a claim on: never a
// Kubernetes system namespace (nor `default`, where everything lands that names no namespace),
// never landlord's own. An existing namespace the Tenant does not own is the converger's business
// (ownership.ts: Conflict), since only the cluster knows whether it exists. Pure.
import { fillName, type ClassPolicy } from '../../api/tenantclass.js';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../../util/names.js';
import { quote } from '../policy/json.js';
import { refusal, type Refusal } from '../policy/refusals.js';

/** Namespaces Kubernetes itself keeps; any other `kube-` name is refused too, as reserved. */
export const SYSTEM_NAMESPACES: readonly string[] = Object.freeze([
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);

export type TenantNamespace = { ok: true; namespace: string } | { ok: false; refusal: Refusal };

export function tenantNamespace(
  tenant: string,
  tenantClass: Pick<ClassPolicy, 'name' | 'namespace'>,
  operatorNamespace: string,
): TenantNamespace {
  const template = tenantClass.namespace.nameTemplate;
  const namespace = fillName(template, tenant);
  const why = namespaceProblem(namespace, operatorNamespace);
  if (why === undefined) return { ok: true, namespace };
  const from = `from the name template ${quote(template)} of class ${tenantClass.name}`;
  return { ok: false, refusal: refusal.tenantNamespaceNotAllowed(quote(namespace), from, why) };
}

function namespaceProblem(namespace: string, operatorNamespace: string): string | undefined {
  if (!isDns1123Label(namespace)) return `is not a namespace name (${DNS1123_LABEL_RULE})`;
  if (SYSTEM_NAMESPACES.includes(namespace) || namespace.startsWith('kube-'))
    return 'is a Kubernetes system namespace, which no tenant may have for itself';
  if (namespace === operatorNamespace) return "is landlord's own namespace";
  return undefined;
}
