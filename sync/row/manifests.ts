// The row's two manifest attributes, each as JSON text (S) or native DynamoDB (M, L). Only their
// types are checked here: the operator judges them as Kubernetes objects.
import { describeAttribute, readAttribute } from './attribute.js';
import { isJsonObject, jsonType, parseJson } from './json.js';
import type { JsonObject } from './json.js';
import { mapToJson } from './native.js';
import { fail, ok } from './step.js';
import type { StepResult } from './step.js';

/** `spec`: the Deployment manifest, as the JSON text of an object or as an M. */
export function readSpec(value: unknown): StepResult<JsonObject> {
  if (value === undefined) {
    return fail('spec: required');
  }
  const attribute = readAttribute(value);
  if (attribute?.tag === 'S') {
    return specFromText(attribute.value);
  }
  if (attribute?.tag === 'M') {
    return mapToJson(attribute.value, 'spec', 1);
  }
  return fail(`spec: must be S (JSON text of an object) or M (map), got ${describeAttribute(attribute)}`);
}

function specFromText(text: string): StepResult<JsonObject> {
  const parsed = parseJson('spec', text);
  if (!parsed.ok) {
    return parsed;
  }
  if (!isJsonObject(parsed.value)) {
    return fail(`spec: must be a JSON object, got ${jsonType(parsed.value)}`);
  }
  return ok(parsed.value);
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
