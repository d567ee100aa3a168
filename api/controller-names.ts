// Names that a controller writes in every namespace, whoever else asks for them. A row that named
// one would have landlord apply its version and the controller put its own back, each undoing the
// other for as long as both run: a write loop on the API server that no conflict check ends, since
// which of the two writes first is a race. Part of the contract because sync, which limits what a
// row may hold before it writes a Tenant, may refuse the same names as the operator's policy does.

/** A name taken in every namespace, and who takes it. */
interface ControllerOwnedName {
  kind: string;
  name: string;
  /** The controller that writes it, for a message that tells the row's writer why. */
  owner: string;
}

const CONTROLLER_OWNED_NAMES: readonly ControllerOwnedName[] = [
  {
    kind: 'ConfigMap',
    name: 'kube-root-ca.crt',
    owner: "kube-controller-manager's root CA publisher",
  },
  {
    kind: 'ConfigMap',
    name: 'openshift-service-ca.crt',
    owner: "OpenShift's service CA controller",
  },
  { kind: 'ConfigMap', name: 'istio-ca-root-cert', owner: "Istio's istiod" },
  {
    kind: 'ServiceAccount',
    name: 'default',
    owner: "kube-controller-manager's ServiceAccount controller",
  },
  { kind: 'ServiceAccount', name: 'builder', owner: "OpenShift's ServiceAccount controller" },
  { kind: 'ServiceAccount', name: 'deployer', owner: "OpenShift's ServiceAccount controller" },
];

/**
 * The controller that writes an object of this kind and name in every namespace, or undefined when
 * the name is free. Pure: a fixed list, whatever the cluster holds right now.
 */
export function controllerOwnerOf(kind: string, name: string): string | undefined {
  return CONTROLLER_OWNED_NAMES.find((taken) => taken.kind === kind && taken.name === name)?.owner;
}
