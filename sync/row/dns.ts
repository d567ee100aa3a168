// Tenant names become Kubernetes object names and label values, so they follow the strictest rule
// either place has: an RFC 1123 label. Kept free of imports so any component can check a name.

/** The longest DNS-1123 label. */
export const DNS_1123_LABEL_MAX = 63;

/** How the rule reads in messages, so every refusal explains it the same way. */
export const DNS_1123_LABEL_RULE =
  "lowercase letters, digits and '-', at most 63 characters, starting and ending with a letter or digit";

// One unambiguous repetition: the regex stays linear on a 400 KB string.
const LABEL = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/;

/** Whether `s` is a DNS-1123 label: the name Kubernetes accepts for a Tenant and its label values. */
export function isDns1123Label(s: string): boolean {
  return typeof s === 'string' && s.length <= DNS_1123_LABEL_MAX && LABEL.test(s);
}
