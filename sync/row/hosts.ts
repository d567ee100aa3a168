// The row's optional `hosts`: the custom domains the tenant's route should also serve, as an L of S
// or as JSON text of an array of strings. Only their type and number are checked here; whether a
// host is a DNS name under the class's allowedDomains, and whether another Tenant holds it, is the
// operator's question (operator/exposure/), which knows the class and the other Tenants.
import { DNS_NAME_MAX_LENGTH } from '../../util/names.js';
import { describeAttribute, readAttribute } from './attribute.js';
import { parseJson, type JsonValue } from './json.js';
import { fail, ok, type StepResult } from './step.js';

/** The most hosts one row may name: a route with more rules is not a tenant's, it is a platform's. */
const MAX_HOSTS = 32;

/** Absent, NULL or an empty list: no custom host (undefined, so such a row hashes as before). */
export function readHosts(value: unknown): StepResult<string[] | undefined> {
  if (value === undefined) return ok(undefined);
  const attribute = readAttribute(value);
  switch (attribute?.tag) {
    case 'NULL':
      return ok(undefined);
    case 'L':
      return hostList(attribute.value.map(stringOf));
    case 'S': {
      const parsed = parseJson('hosts', attribute.value);
      return parsed.ok ? hostList(parsed.value) : parsed;
    }
    default:
      return fail(
        `hosts: must be a list of strings (L of S, or JSON text of one), got ${describeAttribute(attribute)}`,
      );
  }
}

/** An element of an L: its string when it is an S, else undefined (refused as "not a string"). */
function stringOf(element: unknown): string | undefined {
  const attribute = readAttribute(element);
  return attribute?.tag === 'S' ? attribute.value : undefined;
}

function hostList(value: JsonValue | readonly unknown[]): StepResult<string[] | undefined> {
  if (!Array.isArray(value)) return fail('hosts: must be a list of strings');
  if (value.length > MAX_HOSTS)
    return fail(`hosts: ${value.length} hosts, more than the ${MAX_HOSTS} a row may name`);
  const hosts: string[] = [];
  for (const [i, host] of (value as unknown[]).entries()) {
    if (typeof host !== 'string') return fail(`hosts[${i}]: must be a string`);
    if (host.length === 0 || host.length > DNS_NAME_MAX_LENGTH)
      return fail(`hosts[${i}]: must be 1 to ${DNS_NAME_MAX_LENGTH} characters`);
    if (!hosts.includes(host)) hosts.push(host);
  }
  return ok(hosts.length === 0 ? undefined : hosts.sort());
}
