// DynamoDB read units, computed as DynamoDB bills them, for the tests and the benchmark that compare
// index polling with full scans (docs/multi-cluster.md): moto answers every request with a
// flat 1: a Scan or Query costs the summed size of the items it reads (whatever the projection),
// rounded up to 4 KB, at 1 unit per 4 KB strongly consistent and half that eventually consistent.
// Item sizes follow the documented rules (attribute names count; numbers are approximated).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  // About one byte per two significant digits, plus one.
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M !== undefined) return 3 + itemSize(value.M) + Object.keys(value.M).length;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + utf8(s), 0);
  return 0;
}

export function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** The read units of one Scan or Query page that read these items. */
export function readUnits(items: readonly Record<string, AttributeValue>[], consistent: boolean): number {
  const bytes = items.reduce((sum, item) => sum + itemSize(item), 0);
  return Math.ceil(bytes / 4096) * (consistent ? 1 : 0.5);
}
