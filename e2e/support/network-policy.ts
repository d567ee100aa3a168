// Whether a NetworkPolicy, as the API server stores it, lets its pods connect to a destination:
// what a CNI plugin would enforce, read from the rules (kwok pods carry no traffic to try). Written
// from the NetworkPolicy API's semantics, apart from landlord's own code, so a test checks the
// stored policy against what Kubernetes means by it rather than against how landlord made it.
import { BlockList, isIPv4 } from 'node:net';
import type {
  V1LabelSelector,
  V1NetworkPolicy,
  V1NetworkPolicyPeer,
  V1NetworkPolicyPort,
} from '@kubernetes/client-node';

/** Somewhere to connect to: a pod (its namespace's and its own labels), or a bare address. */
export interface Destination {
  namespace?: { name: string; labels: Record<string, string> };
  podLabels?: Record<string, string>;
  ip?: string;
  port: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

function matches(selector: V1LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabel &&
    (selector.matchExpressions ?? []).every((e) => {
      const has = e.key in labels;
      const value = labels[e.key] ?? '';
      if (e.operator === 'In') return has && (e.values ?? []).includes(value);
      if (e.operator === 'NotIn') return !has || !(e.values ?? []).includes(value);
      if (e.operator === 'Exists') return has;
      return !has;
    })
  );
}

function inCidr(cidr: string, ip: string): boolean {
  const [address = '', prefix = '0'] = cidr.split('/');
  const family = isIPv4(address) ? 'ipv4' : 'ipv6';
  if (isIPv4(ip) !== (family === 'ipv4')) return false;
  const list = new BlockList();
  list.addSubnet(address, Number(prefix), family);
  return list.check(ip, family);
}

function peerAllows(peer: V1NetworkPolicyPeer, policyNamespace: string, to: Destination): boolean {
  if (peer.ipBlock !== undefined) {
    const { cidr, except = [] } = peer.ipBlock;
    return to.ip !== undefined && inCidr(cidr, to.ip) && !except.some((e) => inCidr(e, to.ip!));
  }
  if (to.namespace === undefined) return false;
  const namespaceOk =
    peer.namespaceSelector === undefined
      ? to.namespace.name === policyNamespace
      : matches(peer.namespaceSelector, to.namespace.labels);
  const podOk = peer.podSelector === undefined || matches(peer.podSelector, to.podLabels ?? {});
  return namespaceOk && podOk;
}

function portAllows(port: V1NetworkPolicyPort, to: Destination): boolean {
  if ((port.protocol ?? 'TCP') !== (to.protocol ?? 'TCP')) return false;
  if (port.port === undefined) return true;
  const first = Number(port.port);
  return to.port >= first && to.port <= (port.endPort ?? first);
}

/** Whether the policy's pods may connect to `to`; a policy without Egress among its types allows all. */
export function egressAllowed(policy: V1NetworkPolicy, to: Destination): boolean {
  if (!(policy.spec?.policyTypes ?? []).includes('Egress')) return true;
  const namespace = policy.metadata?.namespace ?? '';
  return (policy.spec?.egress ?? []).some((rule) => {
    const peers = rule.to ?? [];
    const ports = rule.ports ?? [];
    const peerOk = peers.length === 0 || peers.some((p) => peerAllows(p, namespace, to));
    const portOk = ports.length === 0 || ports.some((p) => portAllows(p, to));
    return peerOk && portOk;
  });
}
