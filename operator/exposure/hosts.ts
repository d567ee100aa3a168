// Which names a tenant may route: a DNS name (RFC 1123, lower case, at most 253 characters, each
// label at most 63), never a wildcard, never an IP address, and inside one of its class's
// allowedDomains (the domain itself or a name under it, matched by whole labels, so
// "evilapps.example.com" is not under "apps.example.com"). Pure.
import { isIP } from 'node:net';
import { DNS_NAME_MAX_LENGTH, isDns1123Label } from '../../util/names.js';
import { REFUSAL_REASON, type HostReason } from '../policy/refusals.js';

export interface HostProblem {
  reason: HostReason;
  /** Completes "<host> ...": what is wrong with it. */
  text: string;
}

/** Why a host may not be routed by a tenant of a class with these allowedDomains; undefined: it may. */
export function hostProblem(host: string, allowedDomains: readonly string[]): HostProblem | undefined {
  const shape = shapeProblem(host);
  if (shape !== undefined) return { reason: REFUSAL_REASON.invalidHost, text: shape };
  if (allowedDomains.some((domain) => isUnder(host, domain))) return undefined;
  const allowed =
    allowedDomains.length === 0 ? 'none (the class sets no allowedDomains)' : allowedDomains.join(', ');
  return {
    reason: REFUSAL_REASON.hostNotAllowed,
    text: `is not under the class's allowedDomains: ${allowed}`,
  };
}

function shapeProblem(host: string): string | undefined {
  if (host.includes('*')) return 'is a wildcard: a tenant routes only names of its own';
  // An IPv6 address may be bracketed in a URL; either way it names a machine, not a tenant.
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return 'is an IP address, not a DNS name';
  if (host.length > DNS_NAME_MAX_LENGTH) return `is longer than ${DNS_NAME_MAX_LENGTH} characters`;
  const labels = host.split('.');
  if (labels.length < 2) return 'is a single label, not a fully qualified DNS name';
  if (!labels.every(isDns1123Label))
    return 'is not a DNS name (lower-case letters, digits and "-", labels of 1 to 63 characters, separated by dots)';
  return undefined;
}

/** The domain itself, or a name that ends in "." + domain. */
export function isUnder(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}
