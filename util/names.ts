// DNS-1123 names as Kubernetes validates them (apimachinery's IsDNS1123Label and IsDNS1123Subdomain).
// Shared: sync checks tenant names and the length of custom hosts from table rows, the operator
// checks child names and the labels of the hosts it routes, with the same rules.

const DNS1123_LABEL_MAX_LENGTH = 63;
/** The longest DNS name (RFC 1123), a host's or a subdomain's such as an object name. */
export const DNS_NAME_MAX_LENGTH = 253;

export const DNS1123_LABEL_RULE =
  "at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit";
export const DNS1123_SUBDOMAIN_RULE =
  "at most 253 lowercase letters, digits, '-' and '.', each '.'-separated part starting and ending with a letter or digit";

const LABEL_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A namespace, a container name, a tenant name: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63. */
export function isDns1123Label(value: string): boolean {
  // Length first: it bounds the work the pattern does on hostile input. Callers pass untrusted JSON.
  return typeof value === 'string' && value.length <= DNS1123_LABEL_MAX_LENGTH && LABEL_PATTERN.test(value);
}

/** An object name such as a Deployment's or a ConfigMap's: labels joined by '.', at most 253. */
export function isDns1123Subdomain(value: string): boolean {
  // Kubernetes limits only the whole name here, not each part, so the parts skip the 63 limit.
  return value.length <= DNS_NAME_MAX_LENGTH && value.split('.').every((part) => LABEL_PATTERN.test(part));
}
