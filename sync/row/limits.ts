// The limits that protect the API server, checked by sync before it writes anything: a row's size,
// its number of Deployments and ConfigMaps, the outer shape of each manifest. The operator checks the same and
// more, but only after the Tenant is stored: by then the API server has validated (and etcd kept)
// a row of thousands of ConfigMaps, on every write of it. sync does not know the row's class (the
// operator resolves it), so it holds every row to the built-in class's limits, the defaults a
// class starts from; a class that raises them does not raise them here (docs/isolation.md).
import { controllerOwnerOf } from '../../api/controller-names.js';
import { builtInClass, type ClassLimits } from '../../api/tenantclass.js';
import { isDns1123Subdomain } from '../../util/names.js';
import { isJsonObject, type JsonObject } from './json.js';
import type { SpecManifests } from './manifests.js';
import { parseRow } from './parse.js';
import { fail, ok, type StepResult } from './step.js';
import { quote } from './text.js';
import type { ParsedRow, RowProblemAttribute } from './types.js';

/** The limits sync holds rows to: the defaults of every class. */
export const SYNC_ROW_LIMITS: Pick<ClassLimits, 'maxConfigMaps' | 'maxDeployments' | 'maxRowBytes'> =
  builtInClass().limits;

const NOT_THE_CLASS = "sync does not know the row's class, so it applies the default class limits";
/** The longest object name Kubernetes takes. */
const MAX_NAME_LENGTH = 253;

interface Expected {
  apiVersion: string;
  kind: string;
}
const DEPLOYMENT: Expected = { apiVersion: 'apps/v1', kind: 'Deployment' };
const CONFIG_MAP: Expected = { apiVersion: 'v1', kind: 'ConfigMap' };

const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The row's Deployments as one list, each with the path a message names it by. */
function deploymentsOf(manifests: SpecManifests): { path: string; manifest: JsonObject }[] {
  if ('deployment' in manifests) return [{ path: 'spec', manifest: manifests.deployment }];
  return manifests.deployments.map((manifest, index) => ({ path: `spec[${index}]`, manifest }));
}

/**
 * The row's manifests, checked in the order that costs least: the size (one measure), the counts
 * (one length each), then each manifest's outer shape and name. The message starts with the attribute.
 */
function checkRowLimits(manifests: SpecManifests, configMaps: readonly JsonObject[]): StepResult<true> {
  const size = checkSize(manifests, configMaps);
  if (!size.ok) return size;
  const count = checkDeploymentCount(manifests);
  if (!count.ok) return count;
  if (configMaps.length > SYNC_ROW_LIMITS.maxConfigMaps) {
    return fail(
      `customizations: ${configMaps.length} ConfigMaps, more than the ${SYNC_ROW_LIMITS.maxConfigMaps} ` +
        `allowed (maxConfigMaps; ${NOT_THE_CLASS}); merge ConfigMaps, one may hold many keys`,
    );
  }
  const deployments = checkDeployments(deploymentsOf(manifests));
  if (!deployments.ok) return deployments;
  return checkConfigMaps(configMaps);
}

function checkSize(manifests: SpecManifests, configMaps: readonly JsonObject[]): StepResult<true> {
  const specBytes = jsonBytes('deployment' in manifests ? manifests.deployment : manifests.deployments);
  const customizationBytes = jsonBytes(configMaps);
  const total = specBytes + customizationBytes;
  if (total <= SYNC_ROW_LIMITS.maxRowBytes) return ok(true);
  // Named after the larger part, so the message points at what to shrink first.
  const attribute = specBytes >= customizationBytes ? 'spec' : 'customizations';
  return fail(
    `${attribute}: spec and customizations are ${total} bytes of JSON, more than the ` +
      `${SYNC_ROW_LIMITS.maxRowBytes} allowed (maxRowBytes; ${NOT_THE_CLASS}); move large data out of the row`,
  );
}

function checkDeploymentCount(manifests: SpecManifests): StepResult<true> {
  if ('deployment' in manifests || manifests.deployments.length <= SYNC_ROW_LIMITS.maxDeployments) {
    return ok(true);
  }
  return fail(
    `spec: ${manifests.deployments.length} Deployments, more than the ${SYNC_ROW_LIMITS.maxDeployments} ` +
      `allowed (maxDeployments; ${NOT_THE_CLASS}); split the services across tenants`,
  );
}

/**
 * Each Deployment's outer shape, and a name of its own: every one lands in the tenant's namespace
 * whatever namespace its manifest says, so two of one name would undo each other on every apply.
 */
function checkDeployments(deployments: readonly { path: string; manifest: JsonObject }[]): StepResult<true> {
  const firstByName = new Map<string, string>();
  for (const { path, manifest } of deployments) {
    const shape = checkOuterShape(path, manifest, DEPLOYMENT);
    if (!shape.ok) return shape;
    const first = firstByName.get(shape.value);
    if (first !== undefined) {
      return fail(
        `${path}.metadata.name: ${quote(shape.value)} is ${first}'s name too; each Deployment needs its own name`,
      );
    }
    firstByName.set(shape.value, path);
  }
  return ok(true);
}

function checkConfigMaps(configMaps: readonly JsonObject[]): StepResult<true> {
  const firstIndexByKey = new Map<string, number>();
  for (const [index, configMap] of configMaps.entries()) {
    const path = `customizations[${index}]`;
    const shape = checkOuterShape(path, configMap, CONFIG_MAP);
    if (!shape.ok) return shape;
    const name = shape.value;
    const owner = controllerOwnerOf(CONFIG_MAP.kind, name);
    if (owner !== undefined) {
      return fail(
        `${path}.metadata.name: ${quote(name)} is written in every namespace by ${owner}; choose another name`,
      );
    }
    const metadata = configMap.metadata as JsonObject;
    const key = `${typeof metadata.namespace === 'string' ? metadata.namespace : ''}/${name}`;
    const first = firstIndexByKey.get(key);
    if (first !== undefined) {
      return fail(
        `${path}.metadata.name: ${quote(name)} is customizations[${first}]'s name too; names must be unique`,
      );
    }
    firstIndexByKey.set(key, index);
  }
  return ok(true);
}

/** apiVersion, kind and metadata.name as Kubernetes needs them; the name when they are. */
function checkOuterShape(path: string, manifest: JsonObject, expected: Expected): StepResult<string> {
  for (const field of ['apiVersion', 'kind'] as const) {
    if (manifest[field] !== expected[field]) {
      const got = manifest[field];
      const shown = typeof got === 'string' ? quote(got) : got === undefined ? 'nothing' : typeof got;
      return fail(`${path}.${field}: must be ${quote(expected[field])}, got ${shown}`);
    }
  }
  const metadata = manifest.metadata;
  if (metadata === undefined || metadata === null || !isJsonObject(metadata)) {
    return fail(`${path}.metadata: must be an object holding the name`);
  }
  const name = metadata.name;
  if (typeof name !== 'string' || name.length > MAX_NAME_LENGTH || !isDns1123Subdomain(name)) {
    const shown = typeof name === 'string' ? quote(name) : 'none';
    return fail(
      `${path}.metadata.name: must be a DNS-1123 subdomain of at most ${MAX_NAME_LENGTH} characters, got ${shown}`,
    );
  }
  return ok(name);
}

/** The manifest attribute a limit message starts with. */
const attributeNamed = (message: string): RowProblemAttribute =>
  message.startsWith('spec') ? 'spec' : 'customizations';

/**
 * A parsed row held to the limits: a tenant row past one becomes a refused row (InvalidRecord), so
 * nothing of it is sent. parseRow reads the row's types; this is what sync, `plan` and `validate` use.
 */
function withinLimits(row: ParsedRow): ParsedRow {
  if (row.kind !== 'tenant') return row;
  const { deployment, deployments, configMaps = [] } = row.spec;
  const manifests = (deployments === undefined
    ? { deployment }
    : { deployments }) as unknown as SpecManifests;
  const checked = checkRowLimits(manifests, configMaps as unknown as JsonObject[]);
  if (checked.ok) return row;
  const problem = { attribute: attributeNamed(checked.message), message: checked.message };
  return { kind: 'invalid', name: row.name, problem, deleted: false };
}

/** One DynamoDB item to what sync does with its tenant: parsed, then held to the limits. */
export function readRow(item: Parameters<typeof parseRow>[0]): ParsedRow {
  return withinLimits(parseRow(item));
}
