// One DynamoDB item (from a Scan or a stream's NewImage) to what sync should do with its tenant.
// The row format is a contract with users that must never break: this is where it is enforced.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { TenantSpec, TenantState } from '../../api/tenant.js';
import { isRecord } from './attribute.js';
import { readClass, readCluster, readDeleted, readName, readState } from './fields.js';
import { rowHash } from './hash.js';
import type { JsonObject } from './json.js';
import { readCustomizations, readSpec, type SpecManifests } from './manifests.js';
import { readHosts } from './hosts.js';
import { readNote } from './note.js';
import type { ParsedRow, RowProblemAttribute } from './types.js';

/**
 * What the row says about its tenant. Never throws: one bad row must not stop a scan. `deleted:
 * true` wins over a broken spec, so a user can always delete a tenant whose row they broke.
 */
export function parseRow(item: Record<string, AttributeValue>): ParsedRow {
  try {
    return parseItem(item);
  } catch {
    // Only a hostile object (a throwing getter, a Proxy) gets here; its error could quote anything.
    return invalid(undefined, 'item', 'item: could not be read');
  }
}

function parseItem(item: unknown): ParsedRow {
  if (!isRecord(item)) {
    return invalid(undefined, 'item', `item: must be a map of attributes, got ${typeName(item)}`);
  }
  const name = readName(attributeOf(item, 'name'));
  const deleted = readDeleted(attributeOf(item, 'deleted'));
  if (!name.ok) {
    return invalid(undefined, 'name', name.message, deleted.ok && deleted.value);
  }
  if (!deleted.ok) {
    return invalid(name.value, 'deleted', deleted.message);
  }
  if (deleted.value) {
    return { kind: 'deleted', name: name.value };
  }
  const spec = readSpec(attributeOf(item, 'spec'));
  if (!spec.ok) {
    return invalid(name.value, 'spec', spec.message);
  }
  const configMaps = readCustomizations(attributeOf(item, 'customizations'));
  if (!configMaps.ok) {
    return invalid(name.value, 'customizations', configMaps.message);
  }
  const extras = readExtras(item, name.value);
  if (!extras.ok) {
    return extras.invalid;
  }
  const parsed = tenant(name.value, {
    manifests: spec.value,
    configMaps: configMaps.value,
    ...extras.value,
  });
  // Only a row that carries a note says so: the rows written before notes existed parse as they did.
  const note = readNote(item, parsed.hash);
  return note === undefined ? parsed : { ...parsed, note };
}

type Extras = Pick<RowContent, 'state' | 'tenantClass' | 'hosts'>;

/** The optional attributes: state, class, hosts, and cluster (checked only). */
function readExtras(
  item: Record<string, unknown>,
  name: string,
): { ok: true; value: Extras } | { ok: false; invalid: ParsedRow } {
  const state = readState(attributeOf(item, 'state'));
  if (!state.ok) {
    return { ok: false, invalid: invalid(name, 'state', state.message) };
  }
  const tenantClass = readClass(attributeOf(item, 'class'));
  if (!tenantClass.ok) {
    return { ok: false, invalid: invalid(name, 'class', tenantClass.message) };
  }
  const hosts = readHosts(attributeOf(item, 'hosts'));
  if (!hosts.ok) {
    return { ok: false, invalid: invalid(name, 'hosts', hosts.message) };
  }
  // Which sync mirrors the row is placement's business (placement.ts), not the Tenant's content:
  // checked here only so that a cluster nobody can read is refused where the row lands.
  const cluster = readCluster(attributeOf(item, 'cluster'));
  if (!cluster.ok) {
    return { ok: false, invalid: invalid(name, 'cluster', cluster.message) };
  }
  return { ok: true, value: { state: state.value, tenantClass: tenantClass.value, hosts: hosts.value } };
}

function typeName(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  return Array.isArray(value) ? 'array' : typeof value;
}

/** Own attributes only: an inherited `name` is not on the row. */
function attributeOf(item: Record<string, unknown>, attribute: string): unknown {
  return Object.hasOwn(item, attribute) ? item[attribute] : undefined;
}

interface RowContent {
  manifests: SpecManifests;
  configMaps: JsonObject[];
  state: TenantState;
  tenantClass: string | undefined;
  hosts: string[] | undefined;
}

function tenant(
  name: string,
  { manifests, configMaps, state, tenantClass, hosts }: RowContent,
): Extract<ParsedRow, { kind: 'tenant' }> {
  // Typed as manifests, but checked only as JSON objects here: the operator validates them. The
  // Deployment (or Deployments) first, so a row of one writes the Tenant it always wrote.
  const spec: TenantSpec = {
    ...(manifests as Pick<TenantSpec, 'deployment' | 'deployments'>),
    configMaps,
    state,
    ...(tenantClass === undefined ? {} : { class: tenantClass }),
    ...(hosts === undefined ? {} : { hosts }),
  };
  return { kind: 'tenant', name, spec, hash: rowHash(spec) };
}

function invalid(
  name: string | undefined,
  attribute: RowProblemAttribute,
  message: string,
  deleted = false,
): ParsedRow {
  return { kind: 'invalid', name, problem: { attribute, message }, deleted };
}
