// Reading a DynamoDB AttributeValue's type tag. Scan results and stream images both carry the
// low-level form ({ S: '…' }, { M: { … } }); reading the tag ourselves lets a problem message name
// the type the row really holds ("got S \"true\"") instead of a converted value.
import { quote, truncate } from './text.js';

export type Attribute =
  | { tag: 'S'; value: string }
  | { tag: 'N'; value: string }
  | { tag: 'BOOL'; value: boolean }
  | { tag: 'NULL' }
  | { tag: 'M'; value: Record<string, unknown> }
  | { tag: 'L'; value: readonly unknown[] }
  | { tag: 'B' | 'SS' | 'NS' | 'BS' }
  /** A type newer than this SDK: it reports it as `$unknown: [name, value]`. */
  | { tag: 'unknown'; name: string };

const TAG_NAMES = {
  NULL: 'NULL',
  M: 'M (map)',
  L: 'L (list)',
  B: 'B (binary)',
  SS: 'SS (string set)',
  NS: 'NS (number set)',
  BS: 'BS (binary set)',
} as const;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tag and value of `value`, or undefined when it is not a well-formed AttributeValue. */
export function readAttribute(value: unknown): Attribute | undefined {
  if (!isRecord(value)) {
    return undefined;
  }
  // The SDK's types allow the other members as explicit undefined; only set ones count.
  const tags = Object.keys(value).filter((key) => value[key] !== undefined);
  const [tag] = tags;
  if (tags.length !== 1 || tag === undefined) {
    return undefined;
  }
  return tag === '$unknown'
    ? readUnknown(value[tag])
    : (readScalar(tag, value[tag]) ?? readOther(tag, value[tag]));
}

function readUnknown(member: unknown): Attribute | undefined {
  return Array.isArray(member) && typeof member[0] === 'string'
    ? { tag: 'unknown', name: member[0] }
    : undefined;
}

function readScalar(tag: string, member: unknown): Attribute | undefined {
  switch (tag) {
    case 'S':
    case 'N':
      return typeof member === 'string' ? { tag, value: member } : undefined;
    case 'BOOL':
      return typeof member === 'boolean' ? { tag, value: member } : undefined;
    case 'NULL':
      return member === true ? { tag } : undefined;
    default:
      return undefined;
  }
}

function readOther(tag: string, member: unknown): Attribute | undefined {
  switch (tag) {
    case 'M':
      return isRecord(member) ? { tag, value: member } : undefined;
    case 'L':
      return Array.isArray(member) ? { tag, value: member } : undefined;
    case 'B':
    case 'SS':
    case 'NS':
    case 'BS':
      // Never accepted anywhere in a row, so their contents need no checking.
      return { tag };
    default:
      return undefined;
  }
}

/** The attribute as a message shows it: its tag, plus a short excerpt of a scalar's value. */
export function describeAttribute(attribute: Attribute | undefined): string {
  if (attribute === undefined) {
    return 'a value that is not a DynamoDB AttributeValue';
  }
  switch (attribute.tag) {
    case 'S':
      return `S ${quote(attribute.value)}`;
    case 'N':
      return `N ${truncate(attribute.value)}`;
    case 'BOOL':
      return `BOOL ${String(attribute.value)}`;
    case 'unknown':
      return `unknown type ${quote(attribute.name)}`;
    default:
      return TAG_NAMES[attribute.tag];
  }
}
