// config/admission/policies.yaml, the admission rules for what tenant teams create in their
// namespaces, read as data: each policy refuses (failurePolicy Fail, action Deny) in tenant
// namespaces only, reads its hosts from the annotation the operator keeps, explains each refusal,
// and the chart ships the same bytes. What the rules decide is tested on the real API server
// (e2e/admission-exposure.test.ts).
import { readFileSync } from 'node:fs';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { HOSTS_ANNOTATION } from './exposure.js';
import { LABEL } from './tenant.js';

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
    matchResources: {
      namespaceSelector: { matchExpressions: { key: string; operator: string; values?: string[] }[] };
    };
  };
}

const FILE = 'config/admission/policies.yaml';
const text = read(FILE);
const objects = loadAll(text) as (Policy | Binding)[];
const policies = objects.filter((o): o is Policy => o.kind === 'ValidatingAdmissionPolicy');
const bindings = objects.filter((o): o is Binding => o.kind === 'ValidatingAdmissionPolicyBinding');

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
    expect(policies.flatMap(checked).sort()).toEqual([
      '/services',
      'gateway.networking.k8s.io/grpcroutes',
      'gateway.networking.k8s.io/httproutes',
      'gateway.networking.k8s.io/tcproutes',
      'gateway.networking.k8s.io/tlsroutes',
      'gateway.networking.k8s.io/udproutes',
      'networking.k8s.io/ingresses',
    ]);
  });

  it.each(policies.map((p) => [p.metadata.name, p] as const))(
    '%s refuses when it cannot decide, on create and on update, never on delete',
    (_, policy) => {
      expect(policy.spec.failurePolicy).toBe('Fail');
      for (const rule of policy.spec.matchConstraints.resourceRules)
        expect(rule.operations).toEqual(['CREATE', 'UPDATE']);
    },
  );

  it.each(policies.map((p) => [p.metadata.name, p] as const))(
    '%s explains every refusal with a reason and a message naming the object',
    (_, policy) => {
      for (const validation of policy.spec.validations) {
        expect(validation.reason).toBe('Forbidden');
        expect(validation.messageExpression).toContain('object.metadata.name');
      }
    },
  );

  it.each(policies.map((p) => [p.metadata.name, p] as const))(
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

  it('gives each policy one binding: Deny, in namespaces labelled as a tenant’s only', () => {
    expect(bindings.map((b) => b.spec.policyName).sort()).toEqual(
      policies.map((p) => p.metadata.name).sort(),
    );
    for (const binding of bindings) {
      expect(binding.metadata.name).toBe(binding.spec.policyName);
      expect(binding.spec.validationActions).toEqual(['Deny']);
      expect(binding.spec.matchResources.namespaceSelector).toEqual({
        matchExpressions: [{ key: LABEL.tenant, operator: 'Exists' }],
      });
    }
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
