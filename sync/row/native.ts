// Native DynamoDB maps and lists (spec as M, a ConfigMap as an element of L) turned into the JSON
// value their text form parses to, so both forms of a row yield the same manifest and hash.
// unmarshall from @aws-sdk/util-dynamodb is not used: it builds maps by assignment (a "__proto__"
// key would replace the prototype), turns big integers into BigInt and sets into Set (neither has
// a JSON form), throws instead of naming the bad element, and has no depth limit.
import { describeAttribute, readAttribute } from './attribute.js';
import type { Attribute } from './attribute.js';
import { MAX_DEPTH } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import { fail, ok } from './step.js';
import type { StepResult } from './step.js';
import { quote, truncate } from './text.js';

type Segment = string | number;

/** A failure's `at` is filled in while returning out of the nesting, so success builds no paths. */
type Converted<T> =
  | { ok: true; value: T }
  /** No `at`: the problem is about the whole attribute, not one element. */
  | { ok: false; reason: string; at?: Segment[] };

// DynamoDB's number syntax. Number() alone would also take '', ' 1', '0x10' and 'Infinity'.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** Paths can run 64 levels deep; the head says which attribute, the rest is a hint. */
const MAX_PATH = 120;

/**
 * The JSON object an M attribute's map holds. `path` names it in messages (`spec`,
 * `customizations[2]`); `depth` is the map's own nesting level within the attribute, from 1.
 */
export function mapToJson(map: Record<string, unknown>, path: string, depth: number): StepResult<JsonObject> {
  const converted = convertMap(map, depth);
  if (converted.ok) {
    return ok(converted.value);
  }
  const where = converted.at === undefined ? path : truncate(formatPath(path, converted.at), MAX_PATH);
  return fail(`${where}: ${converted.reason}`);
}

function convertValue(value: unknown, parentDepth: number): Converted<JsonValue> {
  const attribute = readAttribute(value);
  switch (attribute?.tag) {
    case 'S':
    case 'BOOL':
      return { ok: true, value: attribute.value };
    case 'NULL':
      return { ok: true, value: null };
    case 'N':
      return convertNumber(attribute.value);
    case 'M':
      return convertMap(attribute.value, parentDepth + 1);
    case 'L':
      return convertList(attribute.value, parentDepth + 1);
    default:
      return { ok: false, reason: unsupported(attribute), at: [] };
  }
}

function convertMap(map: Record<string, unknown>, depth: number): Converted<JsonObject> {
  if (depth > MAX_DEPTH) {
    return { ok: false, reason: `nested deeper than ${MAX_DEPTH} levels` };
  }
  const entries: Array<[string, JsonValue]> = [];
  for (const key of Object.keys(map)) {
    const child = convertValue(map[key], depth);
    if (!child.ok) {
      return within(key, child);
    }
    entries.push([key, child.value]);
  }
  // fromEntries defines properties: a "__proto__" key stays an own key, as JSON.parse leaves it.
  return { ok: true, value: Object.fromEntries<JsonValue>(entries) };
}

function convertList(list: readonly unknown[], depth: number): Converted<JsonValue[]> {
  if (depth > MAX_DEPTH) {
    return { ok: false, reason: `nested deeper than ${MAX_DEPTH} levels` };
  }
  const values: JsonValue[] = [];
  for (const [index, element] of list.entries()) {
    const child = convertValue(element, depth);
    if (!child.ok) {
      return within(index, child);
    }
    values.push(child.value);
  }
  return { ok: true, value: values };
}

function convertNumber(text: string): Converted<number> {
  const value = NUMBER.test(text) ? Number(text) : Number.NaN;
  if (Number.isFinite(value)) {
    return { ok: true, value };
  }
  return { ok: false, reason: `N ${quote(text)} is not a finite number`, at: [] };
}

function within(segment: Segment, failure: { ok: false; reason: string; at?: Segment[] }): Converted<never> {
  failure.at?.unshift(segment);
  return failure;
}

function unsupported(attribute: Attribute | undefined): string {
  return attribute === undefined
    ? 'not a DynamoDB AttributeValue'
    : `${describeAttribute(attribute)} has no JSON form`;
}

function formatPath(head: string, segments: readonly Segment[]): string {
  const parts = segments.map((segment) => {
    if (typeof segment === 'number') {
      return `[${segment}]`;
    }
    return IDENTIFIER.test(segment) ? `.${segment}` : `[${quote(segment)}]`;
  });
  return head + parts.join('');
}
