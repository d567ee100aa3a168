// Where an Isolated tenant's pods may connect: their own namespace, the cluster's DNS, and what the
// class's allowEgressTo lists, never the cloud metadata endpoint. A CIDR that covers the endpoint
// gets it added to its `except` rather than being refused: an admin who writes 0.0.0.0/0 means "the
// internet", and the node's credentials behind 169.254.169.254 are never part of that. Only an entry
// that is nothing but the endpoint (169.254.169.254/32) cannot be fenced that way, and is refused
// with the CIDRs NetworkPolicy would refuse. Pure: the answers remembered per CIDR (endpointsIn)
// change no answer, only how often a BlockList is built.
import { BlockList, isIP } from 'node:net';
import type { V1LabelSelector } from '@kubernetes/client-node';
import type { ClassPolicy, EgressPort, EgressRule } from '../../api/tenantclass.js';
import { selects } from '../../util/label-selector.js';

type Family = 'ipv4' | 'ipv6';

interface Cidr {
  address: string;
  prefix: number;
  family: Family;
}

interface MetadataEndpoint {
  ip: string;
  family: Family;
  cidr: string;
}

/** The instance metadata endpoints (AWS, and GCP/Azure on the IPv4 one): node credentials. */
const METADATA_ENDPOINTS: readonly MetadataEndpoint[] = [
  { ip: '169.254.169.254', family: 'ipv4', cidr: '169.254.169.254/32' },
  { ip: 'fd00:ec2::254', family: 'ipv6', cidr: 'fd00:ec2::254/128' },
];

const MAX_PREFIX: Readonly<Record<Family, number>> = { ipv4: 32, ipv6: 128 };

/** CoreDNS and kube-dns both run in kube-system with this label. */
const DNS_PEER = {
  namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
  podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
};
const DNS_PORTS: EgressPort[] = [
  { protocol: 'UDP', port: 53 },
  { protocol: 'TCP', port: 53 },
];

/** A NetworkPolicy egress peer, as sent on the wire. */
type EgressPeer =
  | { podSelector: V1LabelSelector }
  | { namespaceSelector: V1LabelSelector; podSelector?: V1LabelSelector }
  | { ipBlock: { cidr: string; except?: string[] } };

export interface EgressPolicyRule {
  to: EgressPeer[];
  ports?: EgressPort[];
}

/** "10.0.0.0/8" as its parts, or undefined when it is not a CIDR. */
export function parseCidr(text: string): Cidr | undefined {
  const [address = '', prefixText, ...rest] = text.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0 || prefixText === undefined || !/^\d{1,3}$/.test(prefixText))
    return undefined;
  const family: Family = version === 4 ? 'ipv4' : 'ipv6';
  const prefix = Number(prefixText);
  return prefix <= MAX_PREFIX[family] ? { address, prefix, family } : undefined;
}

/**
 * The metadata endpoints a CIDR (as text) covers; none when it is not a CIDR. Remembered per text:
 * every Isolated tenant's NetworkPolicy fences the same few CIDRs of its class, and a BlockList per
 * check was 1.7 % of the operator's CPU in a cold start. Bounded, since classes are edited.
 */
function endpointsIn(text: string): readonly MetadataEndpoint[] {
  let found = endpointsByCidr.get(text);
  if (found === undefined) {
    const cidr = parseCidr(text);
    found = cidr === undefined ? [] : METADATA_ENDPOINTS.filter((m) => cidrContains(cidr, m.ip, m.family));
    if (endpointsByCidr.size >= MAX_REMEMBERED_CIDRS) endpointsByCidr.clear();
    endpointsByCidr.set(text, found);
  }
  return found;
}

const MAX_REMEMBERED_CIDRS = 256;
const endpointsByCidr = new Map<string, readonly MetadataEndpoint[]>();

/** Whether `ip` lies in the CIDR. */
export function cidrContains(cidr: Cidr, ip: string, family: Family): boolean {
  if (cidr.family !== family) return false;
  const block = new BlockList();
  block.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return block.check(ip, family);
}

/** A class field that cannot be fenced: where it is, and why. */
export interface EgressProblem {
  path: string;
  text: string;
}

/**
 * What is wrong with the class's egress entries, first in list order; undefined when nothing is.
 * The caller turns it into the EgressNotAllowed refusal (tenancy/ does not import policy/).
 */
export function egressProblem(tenantClass: ClassPolicy): EgressProblem | undefined {
  for (const [i, rule] of tenantClass.allowEgressTo.entries()) {
    const problem = ipBlockProblem(rule, `allowEgressTo[${i}].ipBlock`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function ipBlockProblem(rule: EgressRule, path: string): EgressProblem | undefined {
  if (rule.ipBlock === undefined) return undefined;
  const cidr = parseCidr(rule.ipBlock.cidr);
  if (cidr === undefined) return { path: `${path}.cidr`, text: `${rule.ipBlock.cidr} is not a CIDR` };
  const bad = (rule.ipBlock.except ?? []).findIndex((e) => parseCidr(e) === undefined);
  if (bad >= 0) return { path: `${path}.except[${bad}]`, text: 'is not a CIDR' };
  const endpoint = METADATA_ENDPOINTS.find(
    (m) => cidr.prefix === MAX_PREFIX[m.family] && cidrContains(cidr, m.ip, m.family),
  );
  if (endpoint === undefined) return undefined;
  return {
    path: `${path}.cidr`,
    text: `${rule.ipBlock.cidr} is the cloud metadata endpoint, which holds the node's credentials and no tenant may reach`,
  };
}

/** The ipBlock with every metadata endpoint it covers added to `except` (once). */
export function fencedIpBlock(ipBlock: { cidr: string; except?: string[] }): {
  cidr: string;
  except?: string[];
} {
  const except = [...(ipBlock.except ?? [])];
  const excepted = new Set(except.flatMap(endpointsIn));
  for (const endpoint of endpointsIn(ipBlock.cidr)) if (!excepted.has(endpoint)) except.push(endpoint.cidr);
  return except.length > 0 ? { cidr: ipBlock.cidr, except } : { cidr: ipBlock.cidr };
}

/**
 * The egress rules of an Isolated namespace: its own pods, DNS, then each class entry that names a
 * destination (an entry without one would open every destination on its ports, so it adds nothing).
 */
export function egressRules(tenantClass: ClassPolicy): EgressPolicyRule[] {
  const rules: EgressPolicyRule[] = [{ to: [{ podSelector: {} }] }, { to: [DNS_PEER], ports: DNS_PORTS }];
  for (const entry of tenantClass.allowEgressTo) {
    const to: EgressPeer[] = [];
    if (selects(entry.namespaceSelector)) to.push({ namespaceSelector: entry.namespaceSelector });
    if (entry.ipBlock !== undefined) to.push({ ipBlock: fencedIpBlock(entry.ipBlock) });
    if (to.length === 0) continue;
    rules.push(entry.ports === undefined || entry.ports.length === 0 ? { to } : { to, ports: entry.ports });
  }
  return rules;
}
