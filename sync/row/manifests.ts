// The row's two manifest attributes, each as JSON text (S) or native DynamoDB (M, L). Only their
// types are checked here: the operator judges them as Kubernetes objects.
import { describeAttribute, readAttribute } from './attribute.js';
import { isJsonObject, jsonType, parseJson } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import { mapToJson } from './native.js';
import { fail, ok } from './step.js';
import type { StepResult } from './step.js';

/**
 * What `spec` holds: one Deployment (the seed format, read exactly as before), or several, each a
 * service of the tenant, from a JSON array or a v1 List of them.
 */
export type SpecManifests = { deployment: JsonObject } | { deployments: JsonObject[] };

/**
 * `spec`: the Deployment manifest, as the JSON text of an object or as an M; or several, as the
 * JSON text of an array or of a v1 List, as an L of M, or as an M holding a v1 List.
 */
export function readSpec(value: unknown): StepResult<SpecManifests> {
  if (value === undefined) {
    return fail('spec: required');
  }
  const attribute = readAttribute(value);
  switch (attribute?.tag) {
    case 'S':
      return specFromText(attribute.value);
    case 'M': {
      const map = mapToJson(attribute.value, 'spec', 1);
      return map.ok ? specFromObject(map.value) : map;
    }
    case 'L':
      return specFromList(attribute.value);
    default:
      return fail(
        `spec: must be S (JSON text of an object or an array), M (map) or L (list of maps), got ${describeAttribute(attribute)}`,
      );
  }
}

function specFromText(text: string): StepResult<SpecManifests> {
  const parsed = parseJson('spec', text);
  if (!parsed.ok) {
    return parsed;
  }
  if (Array.isArray(parsed.value)) {
    return deploymentsFrom(parsed.value, 'spec');
  }
  if (!isJsonObject(parsed.value)) {
    return fail(`spec: must be a JSON object or an array of them, got ${jsonType(parsed.value)}`);
  }
  return specFromObject(parsed.value);
}

/** A v1 List is read as its items; any other object is the one Deployment, judged later. */
function specFromObject(object: JsonObject): StepResult<SpecManifests> {
  if (object.apiVersion !== 'v1' || object.kind !== 'List') {
    return ok({ deployment: object });
  }
  const items = object.items;
  if (!Array.isArray(items)) {
    return fail(`spec.items: a v1 List must hold its Deployments in items, an array`);
  }
  return deploymentsFrom(items, 'spec.items');
}

function deploymentsFrom(list: readonly JsonValue[], path: string): StepResult<SpecManifests> {
  if (list.length === 0) {
    return fail(`${path}: lists no Deployment; a row runs at least one`);
  }
  const deployments: JsonObject[] = [];
  for (const [index, element] of list.entries()) {
    if (!isJsonObject(element)) {
      return fail(`${path}[${index}]: must be a JSON object, got ${jsonType(element)}`);
    }
    deployments.push(element);
  }
  return ok({ deployments });
}

function specFromList(list: readonly unknown[]): StepResult<SpecManifests> {
  const deployments: JsonValue[] = [];
  for (const [index, element] of list.entries()) {
    const path = `spec[${index}]`;
    const attribute = readAttribute(element);
    if (attribute?.tag !== 'M') {
      return fail(`${path}: must be M (map), got ${describeAttribute(attribute)}`);
    }
    // Level 2: the list itself is level 1, as the array is in the text form.
    const deployment = mapToJson(attribute.value, path, 2);
    if (!deployment.ok) {
      return deployment;
    }
    deployments.push(deployment.value);
  }
  return deploymentsFrom(deployments, 'spec');
}

/** `customizations`: the ConfigMap manifests, as the JSON text of an array or as an L of M. */
export function readCustomizations(value: unknown): StepResult<JsonObject[]> {
  if (value === undefined) {
    return ok([]);
  }
  const attribute = readAttribute(value);
  switch (attribute?.tag) {
    case 'NULL':
      return ok([]);
    case 'S':
      return customizationsFromText(attribute.value);
    case 'L':
      return customizationsFromList(attribute.value);
    default:
      return fail(
        `customizations: must be S (JSON text of an array) or L (list), got ${describeAttribute(attribute)}`,
      );
  }
}

function customizationsFromText(text: string): StepResult<JsonObject[]> {
  const parsed = parseJson('customizations', text);
  if (!parsed.ok) {
    return parsed;
  }
  if (!Array.isArray(parsed.value)) {
    return fail(`customizations: must be a JSON array, got ${jsonType(parsed.value)}`);
  }
  const configMaps: JsonObject[] = [];
  for (const [index, element] of parsed.value.entries()) {
    if (!isJsonObject(element)) {
      return fail(`customizations[${index}]: must be a JSON object, got ${jsonType(element)}`);
    }
    configMaps.push(element);
  }
  return ok(configMaps);
}

function customizationsFromList(list: readonly unknown[]): StepResult<JsonObject[]> {
  const configMaps: JsonObject[] = [];
  for (const [index, element] of list.entries()) {
    const path = `customizations[${index}]`;
    const attribute = readAttribute(element);
    if (attribute?.tag !== 'M') {
      return fail(`${path}: must be M (map), got ${describeAttribute(attribute)}`);
    }
    // Level 2: the list itself is level 1, as the array is in the text form.
    const configMap = mapToJson(attribute.value, path, 2);
    if (!configMap.ok) {
      return configMap;
    }
    configMaps.push(configMap.value);
  }
  return ok(configMaps);
}
