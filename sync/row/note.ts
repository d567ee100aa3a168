// The row's change note: who changed it (`changedBy`), why (`changeReason`) and whether
// `landlord rollback` wrote it (`rollbackHash`). None of them is the tenant's content: they never
// change the row hash, never cause a write, and a value of the wrong type is ignored rather than
// refused, since refusing a row over a note would hold back the edit it describes.
import { readAttribute } from './attribute.js';
import { truncate } from './text.js';

/** The row attributes of the note. `rollbackHash` is written only by `landlord rollback`. */
export const NOTE_ATTRIBUTE = {
  changedBy: 'changedBy',
  changeReason: 'changeReason',
  rollbackHash: 'rollbackHash',
} as const;

/** The most characters of `changedBy` or `changeReason` a revision keeps: history stays one line a revision. */
const MAX_NOTE = 256;

export interface ChangeNote {
  changedBy?: string;
  changeReason?: string;
  /** `landlord rollback` wrote this very content: its marker names the hash the row has. */
  rollback?: true;
}

function text(value: unknown): string | undefined {
  const attribute = readAttribute(value);
  return attribute?.tag === 'S' && attribute.value !== '' ? truncate(attribute.value, MAX_NOTE) : undefined;
}

/**
 * The note of a row whose content hashes to `hash`; undefined when the row carries none. The
 * rollback marker counts only while the content is what the rollback wrote: an edit made after it
 * that leaves the marker in place is an edit, not a rollback.
 */
export function readNote(item: Record<string, unknown>, hash: string): ChangeNote | undefined {
  const own = (attribute: string): unknown => (Object.hasOwn(item, attribute) ? item[attribute] : undefined);
  const changedBy = text(own(NOTE_ATTRIBUTE.changedBy));
  const changeReason = text(own(NOTE_ATTRIBUTE.changeReason));
  const rollback = text(own(NOTE_ATTRIBUTE.rollbackHash)) === hash;
  if (changedBy === undefined && changeReason === undefined && !rollback) return undefined;
  return {
    ...(changedBy === undefined ? {} : { changedBy }),
    ...(changeReason === undefined ? {} : { changeReason }),
    ...(rollback ? { rollback: true as const } : {}),
  };
}
