// Which names a controller takes in every namespace: the same answer for sync and the operator.
import { describe, expect, it } from 'vitest';
import { controllerOwnerOf } from './controller-names.js';

describe('controllerOwnerOf', () => {
  it.each([
    ['ConfigMap', 'kube-root-ca.crt', 'root CA publisher'],
    ['ConfigMap', 'openshift-service-ca.crt', 'OpenShift'],
    ['ConfigMap', 'istio-ca-root-cert', 'istiod'],
    ['ServiceAccount', 'default', 'ServiceAccount controller'],
    ['ServiceAccount', 'deployer', 'OpenShift'],
  ])('%s %s is written by a controller (%s)', (kind, name, owner) => {
    expect(controllerOwnerOf(kind, name)).toContain(owner);
  });

  it.each([
    ['ConfigMap', 'settings'],
    ['ConfigMap', 'kube-root-ca'],
    ['ConfigMap', 'KUBE-ROOT-CA.CRT'],
    ['ConfigMap', 'default'],
    ['Deployment', 'kube-root-ca.crt'],
    ['ServiceAccount', 'landlord-tenant'],
  ])('%s %s is free', (kind, name) => {
    expect(controllerOwnerOf(kind, name)).toBeUndefined();
  });
});
