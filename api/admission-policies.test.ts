// config/admission/policies.yaml, the admission rules for what tenant teams create in their
// namespaces, and for who may stamp a Tenant with its source table, read as data: each policy
// refuses (failurePolicy Fail, action Deny), those on tenant teams in tenant namespaces only,
// reading their hosts from the annotation the operator keeps, or letting only the operator write
// External Secrets Operator's kinds there; each explains its refusals, and the chart ships the same
// bytes; the policy on pods reads the class's grants from the annotations the operator writes
// (operator/namespaces/pod-grants.ts). What the rules decide is tested on the real API server
// (e2e/admission-exposure.test.ts, e2e/escape-hand-made-pods.test.ts, e2e/escape-forged-table.test.ts,
// e2e/escape-external-secret.test.ts).
import { readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { KUBERNETES_TOLERATIONS, POD_GRANT_ANNOTATIONS } from '../operator/namespaces/pod-grants.js';
import { HOSTS_ANNOTATION } from './exposure.js';
import { ANNOTATION, GROUP, LABEL, MANAGED_BY, PLURAL, VERSION } from './tenant.js';

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

interface ResourceRule {
  apiGroups: string[];
  apiVersions: string[];
  operations: string[];
  resources: string[];
}

interface Validation {
  expression: string;
  messageExpression?: string;
  message?: string;
  reason?: string;
}

interface Policy {
  apiVersion: string;
  kind: 'ValidatingAdmissionPolicy';
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    failurePolicy: string;
    matchConstraints: { resourceRules: ResourceRule[] };
    matchConditions?: { name: string; expression: string }[];
    variables?: { name: string; expression: string }[];
    validations: Validation[];
  };
}

interface Binding {
  apiVersion: string;
  kind: 'ValidatingAdmissionPolicyBinding';
  metadata: { name: string; labels?: Record<string, string> };
  spec: {
    policyName: string;
    validationActions: string[];
    matchResources?: {
      namespaceSelector: { matchExpressions: { key: string; operator: string; values?: string[] }[] };
    };
  };
}

const FILE = 'config/admission/policies.yaml';
const text = read(FILE);
const objects = loadAll(text) as (Policy | Binding)[];
const policies = objects.filter((o): o is Policy => o.kind === 'ValidatingAdmissionPolicy');
const bindings = objects.filter((o): o is Binding => o.kind === 'ValidatingAdmissionPolicyBinding');
/** The policy on who may stamp a Tenant's source table; the others are on what tenant teams create. */
const STAMP_POLICY = 'landlord-tenant-source-stamp';
const stamp = policies.find((p) => p.metadata.name === STAMP_POLICY)!;
/** The policy that keeps what landlord made in tenant namespaces landlord's. */
const MANAGED_POLICY = 'landlord-tenant-managed-objects';
const managed = policies.find((p) => p.metadata.name === MANAGED_POLICY)!;
const teamPolicies = policies.filter((p) => p !== stamp && p !== managed);
const teamBindings = bindings.filter(
  (b) => b.spec.policyName !== STAMP_POLICY && b.spec.policyName !== MANAGED_POLICY,
);
/** The policy on External Secrets Operator's kinds; the other team policies are on exposure. */
const ESO_POLICY = 'landlord-tenant-external-secrets';
const eso = policies.find((p) => p.metadata.name === ESO_POLICY)!;
/** The policy on where tenant namespaces' pods run and at what priority. */
const PODS_POLICY = 'landlord-tenant-pods';
const pods = policies.find((p) => p.metadata.name === PODS_POLICY)!;
const exposurePolicies = teamPolicies.filter((p) => p !== eso && p !== pods);

/** The resources each policy checks, as `group/resource`. */
const checked = (policy: Policy): string[] =>
  policy.spec.matchConstraints.resourceRules.flatMap((rule) =>
    rule.apiGroups.flatMap((group) => rule.resources.map((resource) => `${group}/${resource}`)),
  );

describe(FILE, () => {
  it('holds only policies and bindings of admissionregistration.k8s.io/v1, labelled as landlord', () => {
    expect(objects.length).toBe(policies.length + bindings.length);
    for (const o of objects) {
      expect(o.apiVersion).toBe('admissionregistration.k8s.io/v1');
      expect(o.metadata.name).toMatch(/^landlord-/);
      expect(o.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'landlord' });
    }
  });

  it('checks what can bring traffic in: Services, Ingresses and every Gateway API route kind', () => {
    expect(exposurePolicies.flatMap(checked).sort()).toEqual([
      '/services',
      'gateway.networking.k8s.io/grpcroutes',
      'gateway.networking.k8s.io/httproutes',
      'gateway.networking.k8s.io/tcproutes',
      'gateway.networking.k8s.io/tlsroutes',
      'gateway.networking.k8s.io/udproutes',
      'networking.k8s.io/ingresses',
    ]);
  });

  it.each(policies.filter((p) => p !== managed).map((p) => [p.metadata.name, p] as const))(
    '%s refuses when it cannot decide, on create and on update, never on delete',
    (_, policy) => {
      expect(policy.spec.failurePolicy).toBe('Fail');
      for (const rule of policy.spec.matchConstraints.resourceRules)
        expect(rule.operations).toEqual(['CREATE', 'UPDATE']);
    },
  );

  it.each(policies.filter((p) => p !== managed).map((p) => [p.metadata.name, p] as const))(
    '%s explains every refusal with a reason and a message naming the object',
    (_, policy) => {
      for (const validation of policy.spec.validations) {
        expect(validation.reason).toBe('Forbidden');
        expect(validation.messageExpression).toContain('object.metadata.name');
      }
    },
  );

  it.each(teamPolicies.map((p) => [p.metadata.name, p] as const))(
    '%s skips only an update that leaves spec as it was',
    (_, policy) => {
      expect(policy.spec.matchConditions).toEqual([
        {
          name: 'spec-written',
          expression: "request.operation == 'CREATE' || object.spec != oldObject.spec",
        },
      ]);
    },
  );

  it('gives each policy one binding of its name: Deny', () => {
    expect(bindings.map((b) => b.spec.policyName).sort()).toEqual(
      policies.map((p) => p.metadata.name).sort(),
    );
    for (const binding of bindings) {
      expect(binding.metadata.name).toBe(binding.spec.policyName);
      expect(binding.spec.validationActions).toEqual(['Deny']);
    }
  });

  it('binds the policies on tenant teams in namespaces labelled as a tenant’s only', () => {
    expect(teamBindings.length).toBe(teamPolicies.length);
    for (const binding of teamBindings)
      expect(binding.spec.matchResources?.namespaceSelector).toEqual({
        matchExpressions: [{ key: LABEL.tenant, operator: 'Exists' }],
      });
  });

  it('reads the hosts a tenant holds from the annotation the operator keeps, none without it', () => {
    const held = policies.flatMap((p) => p.spec.variables ?? []).filter((v) => v.name === 'held');
    expect(held.length).toBe(2); // the Ingress policy and the route policy
    for (const { expression } of held) {
      const annotation = `namespaceObject.metadata.annotations['${HOSTS_ANNOTATION}']`;
      expect(expression).toContain(annotation);
      expect(expression.replace(/\s+/g, ' ')).toMatch(/ : \[\]$/);
    }
  });

  it('is part of config/default', () => {
    expect(read('config/default/kustomization.yaml')).toContain('\n  - ../admission\n');
    expect(read('config/admission/kustomization.yaml')).toContain('\n  - policies.yaml\n');
  });

  it("is the chart's copy, byte for byte", () => {
    const copy = read('charts/landlord/files/admission-policies.yaml');
    expect(copy, `run: cp ${FILE} charts/landlord/files/admission-policies.yaml`).toBe(text);
  });
});

describe(`${FILE}: ${STAMP_POLICY}`, () => {
  const binding = bindings.find((b) => b.spec.policyName === STAMP_POLICY)!;
  const variable = (name: string): string =>
    stamp.spec.variables!.find((v) => v.name === name)!.expression.replace(/\s+/g, ' ');

  it('checks every create and update of a Tenant, wherever it is (a Tenant is cluster-scoped)', () => {
    expect(checked(stamp)).toEqual([`${GROUP}/${PLURAL}`]);
    expect(stamp.spec.matchConstraints.resourceRules[0]!.apiVersions).toEqual([VERSION]);
    expect(stamp.spec.matchConditions).toBeUndefined();
    expect(binding.spec.matchResources).toBeUndefined();
  });

  it('reads the stamp as api/tenant.ts names it: the table annotation and the source-table label', () => {
    expect(variable('table')).toContain(`object.metadata.annotations['${ANNOTATION.table}']`);
    expect(variable('oldTable')).toContain(`oldObject.metadata.annotations['${ANNOTATION.table}']`);
    expect(variable('label')).toContain(`object.metadata.labels['${LABEL.sourceTable}']`);
    expect(variable('oldLabel')).toContain(`oldObject.metadata.labels['${LABEL.sourceTable}']`);
  });

  it('lets a write that sets, changes or removes the stamp through only with the verb sync alone holds', () => {
    expect(variable('written')).toBe(
      'variables.table != variables.oldTable || variables.label != variables.oldLabel',
    );
    const [only] = stamp.spec.validations;
    expect(stamp.spec.validations.length).toBe(1);
    expect(only!.expression.replace(/\s+/g, ' ')).toBe(
      `!variables.written || authorizer.group('${GROUP}').resource('${PLURAL}').check('stamp').allowed()`,
    );
    const syncRole = read('config/rbac/sync.yaml');
    expect(syncRole).toContain('resources: [tenants]\n    verbs: [stamp]\n');
    for (const other of ['config/rbac/operator.yaml', 'config/purger/rbac.yaml'])
      expect(read(other)).not.toContain('stamp');
  });
});

describe(`${FILE}: ${ESO_POLICY}`, () => {
  it('checks the namespaced kinds of external-secrets.io that read or fill a store, in every version', () => {
    expect(checked(eso).sort()).toEqual([
      'external-secrets.io/externalsecrets',
      'external-secrets.io/pushsecrets',
      'external-secrets.io/secretstores',
    ]);
    // Cluster-scoped kinds would be checked everywhere by a binding on namespace labels.
    expect(checked(eso).some((r) => r.includes('/cluster'))).toBe(false);
    expect(eso.spec.matchConstraints.resourceRules[0]!.apiVersions).toEqual(['*']);
  });

  it('lets a write through only with the verb the operator alone holds, asked cluster-wide', () => {
    const [only] = eso.spec.validations;
    expect(eso.spec.validations.length).toBe(1);
    expect(only!.expression.replace(/\s+/g, ' ')).toBe(
      "authorizer.group('external-secrets.io').resource(request.resource.resource).check('provision').allowed()",
    );
    expect(read('config/rbac/operator.yaml')).toContain(
      'resources: [externalsecrets]\n    verbs: [get, list, watch, create, patch, delete, provision]\n',
    );
    expect(read('charts/landlord/templates/rbac-operator.yaml')).toContain(
      'resources: [externalsecrets]\n    verbs: [get, list, watch, create, patch, delete, provision]\n',
    );
    for (const other of ['config/rbac/sync.yaml', 'config/purger/rbac.yaml'])
      expect(read(other)).not.toContain('provision');
  });
});

describe(`${FILE}: ${MANAGED_POLICY}`, () => {
  const binding = bindings.find((b) => b.spec.policyName === MANAGED_POLICY)!;
  const flat = (text: string): string => text.replace(/\s+/g, ' ');

  it('checks every write, delete included, of each kind the operator makes in a tenant namespace', () => {
    expect(checked(managed).sort()).toEqual([
      '/configmaps',
      '/limitranges',
      '/resourcequotas',
      '/secrets',
      '/serviceaccounts',
      '/services',
      'apps/deployments',
      'external-secrets.io/externalsecrets',
      'gateway.networking.k8s.io/httproutes',
      'networking.k8s.io/ingresses',
      'networking.k8s.io/networkpolicies',
      'rbac.authorization.k8s.io/rolebindings',
    ]);
    expect(managed.spec.failurePolicy).toBe('Fail');
    for (const rule of managed.spec.matchConstraints.resourceRules)
      expect(rule.operations).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(binding.spec.matchResources?.namespaceSelector).toEqual({
      matchExpressions: [{ key: LABEL.tenant, operator: 'Exists' }],
    });
  });

  it("matches an object labelled as the operator's before or after the write", () => {
    const [condition] = managed.spec.matchConditions!;
    const label = `labels['${LABEL.managedBy}'] == '${MANAGED_BY.operator}'`;
    expect(flat(condition!.expression)).toContain(`object.metadata.${label}`);
    expect(flat(condition!.expression)).toContain(`oldObject.metadata.${label}`);
  });

  it("lets through only Kubernetes' controllers and who may own a Tenant's children", () => {
    const [only] = managed.spec.validations;
    expect(managed.spec.validations.length).toBe(1);
    expect(flat(only!.expression)).toBe(
      `variables.kubernetes || authorizer.group('${GROUP}').resource('${PLURAL}').subresource('finalizers').check('update').allowed()`,
    );
    expect(only!.reason).toBe('Forbidden');
    expect(read('config/rbac/operator.yaml')).toContain(
      'resources: [tenants/finalizers]\n    verbs: [update]\n',
    );
    for (const other of ['config/rbac/sync.yaml', 'config/purger/rbac.yaml'])
      expect(read(other)).not.toContain('tenants/finalizers');
  });
});

describe(`${FILE}: ${PODS_POLICY}`, () => {
  const flat = (text: string): string => text.replace(/\s+/g, ' ');
  const variable = (name: string): string =>
    flat(pods.spec.variables!.find((v) => v.name === name)!.expression);
  const rules = pods.spec.validations.map((v) => flat(v.expression)).join('\n');

  it('checks every pod written, whoever writes it', () => {
    expect(checked(pods)).toEqual(['/pods']);
    expect(pods.spec.matchConstraints.resourceRules[0]!.apiVersions).toEqual(['v1']);
    expect(rules).not.toContain('request.userInfo');
  });

  it("reads the class's grants from the annotations the operator writes, each absent one granting none", () => {
    expect(variable('annotations')).toBe(
      'has(namespaceObject.metadata.annotations) ? namespaceObject.metadata.annotations : {}',
    );
    const names: [string, string][] = [
      ['poolSelector', POD_GRANT_ANNOTATIONS.nodeSelector],
      ['granted', POD_GRANT_ANNOTATIONS.tolerations],
      ['priorityClasses', POD_GRANT_ANNOTATIONS.priorityClasses],
    ];
    for (const [name, annotation] of names) {
      expect(variable(name)).toContain(`'${annotation}' in variables.annotations ?`);
      expect(variable(name)).toContain(`variables.annotations['${annotation}'].split(',')`);
      expect(variable(name)).toMatch(/ : \[\]\)?( \.map\(t, t\.split\(':'\)\))?$/);
    }
  });

  it('lets through the tolerations the API server gives every pod, as the operator does', () => {
    const keys = KUBERNETES_TOLERATIONS.map((t) => `'${t.key}'`).join(', ');
    expect(variable('uncovered')).toContain(`t.key in [${keys}]`);
    for (const t of KUBERNETES_TOLERATIONS) {
      expect(variable('uncovered')).toContain(`t.operator == '${t.operator}'`);
      expect(variable('uncovered')).toContain(`t.effect == '${t.effect}'`);
    }
  });

  it('refuses what the operator refuses on a pod template: node names, hostnames, the control plane', () => {
    for (const text of [
      'object.spec.nodeName',
      "'default-scheduler'",
      "'kubernetes.io/hostname'",
      "'node-role.kubernetes.io/control-plane'",
      "'node-role.kubernetes.io/master'",
      "f.key != 'metadata.name'",
      'variables.uncovered',
      'object.spec.priorityClassName in variables.priorityClasses',
    ])
      expect(rules).toContain(text);
  });
});
