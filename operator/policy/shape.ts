// The shape check: each child against its JSON Schema (compiled once, when the module loads), the
// first problem turned into a message that names the field by its path in the Tenant.
import type { V1ConfigMap, V1Deployment } from '@kubernetes/client-node';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { CONFIG_MAPS_PATH, placeIn, type Child, type ValidChildren } from './children.js';
import { fieldPath, isRecord, isUnset, quote } from './json.js';
import { isDns1123Label, isDns1123Subdomain } from '../../util/names.js';
import { refusal, type Refusal } from './refusals.js';
import { CONFIG_MAP_SCHEMA, DEPLOYMENT_SCHEMA, FORMAT } from './schema.js';
import { errorPath } from './shape-paths.js';

// verbose: errors carry the failing schema and data, which the messages below need. inlineRefs off:
// a referenced schema is compiled once as a function of its own (schema.ts says why).
const ajv = new Ajv({ allowUnionTypes: true, verbose: true, inlineRefs: false });
ajv.addVocabulary(['hint']);
ajv.addFormat(FORMAT.label, isDns1123Label);
ajv.addFormat(FORMAT.subdomain, isDns1123Subdomain);

/** The compiled shape of each child kind (shape.test.ts keeps their generated code small). */
export const SHAPE_VALIDATORS = {
  Deployment: ajv.compile<V1Deployment>(DEPLOYMENT_SCHEMA),
  ConfigMap: ajv.compile<V1ConfigMap>(CONFIG_MAP_SCHEMA),
} as const;

/** Required fields whose absence deserves more than "is required". */
const MISSING_HINTS: Record<string, string> = {
  namespace: 'landlord never defaults namespaces, so set the namespace this object belongs in',
};

export type ShapeResult = { ok: true; children: ValidChildren } | { ok: false; refusal: Refusal };

/** `spec.configMaps` may be absent, but when present it must be a list. */
export function checkConfigMapList(list: unknown): Refusal | undefined {
  if (isUnset(list) || Array.isArray(list)) return undefined;
  return refusal.invalidSpec({ child: 'ConfigMap list', path: CONFIG_MAPS_PATH }, 'must be array');
}

export function checkShapes(deployment: Child, configMaps: readonly Child[]): ShapeResult {
  const checked = validated(deployment, SHAPE_VALIDATORS.Deployment);
  if (!checked.ok) return checked;
  const valid: Child<V1ConfigMap>[] = [];
  for (const child of configMaps) {
    const configMap = validated(child, SHAPE_VALIDATORS.ConfigMap);
    if (!configMap.ok) return configMap;
    valid.push(configMap.child);
  }
  return { ok: true, children: { deployment: checked.child, configMaps: valid } };
}

type Validated<T> = { ok: true; child: Child<T> } | { ok: false; refusal: Refusal };

function validated<T>(child: Child, validate: ValidateFunction<T>): Validated<T> {
  const generateName = generateNameProblem(child);
  if (generateName !== undefined) return { ok: false, refusal: generateName };
  const { value } = child;
  if (validate(value)) return { ok: true, child: { ...child, value } };
  // Without allErrors ajv stops at the first failing keyword; it reports inner failures before the
  // keyword that holds them (anyOf, propertyNames), so the last error is the one to explain.
  const error = validate.errors?.at(-1);
  return { ok: false, refusal: error === undefined ? unexplained(child) : explain(child, error) };
}

/** Kubernetes would invent a name, and landlord could never find the object again. */
function generateNameProblem(child: Child): Refusal | undefined {
  const metadata = isRecord(child.value) ? child.value.metadata : undefined;
  if (!isRecord(metadata) || isUnset(metadata.generateName) || !isUnset(metadata.name)) return undefined;
  return refusal.generateName(placeIn(child, fieldPath(child.path, 'metadata')));
}

function explain(child: Child, error: ErrorObject): Refusal {
  const path = errorPath(child.path, error, child.value);
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
    return refusal.missingField(placeIn(child, fieldPath(path, missing)), MISSING_HINTS[missing]);
  }
  return refusal.invalidSpec(placeIn(child, path), problemText(error));
}

function problemText(error: ErrorObject): string {
  if (error.keyword === 'type') return `must be ${typeNames(error.params)}`;
  if (error.keyword === 'const') return `must be ${quote(String(error.schema))}`;
  if (error.keyword === 'minItems' || error.keyword === 'minLength') return 'must not be empty';
  const hint: unknown = isRecord(error.parentSchema) ? error.parentSchema.hint : undefined;
  const text = typeof hint === 'string' ? hint : (error.message ?? 'is not valid');
  return typeof error.data === 'string' ? `${text} (it is ${quote(error.data)})` : text;
}

/** ajv's "object,null" read as a human would: null is always allowed where it is listed. */
function typeNames(params: unknown): string {
  const listed = isRecord(params) ? String(params.type) : 'valid';
  return listed
    .split(',')
    .filter((name) => name !== 'null')
    .join(' or ');
}

/** Unreachable while ajv reports every failure; kept so a failure can never pass silently. */
function unexplained(child: Child): Refusal {
  return refusal.invalidSpec(placeIn(child, child.path), 'does not match the expected shape');
}
