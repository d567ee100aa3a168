// The change note a row may carry: who changed it (`changedBy`), why (`changeReason`) and whether
// `landlord rollback` wrote it (`rollbackHash`). sync reads it into each revision, `landlord rollback`
// writes it, `landlord history` shows it: the attribute names and their meaning are spelled here
// once. None of it is the tenant's content: a note never changes the row hash nor causes a write.
/** The row attributes of the note. `rollbackHash` is written only by `landlord rollback`. */
export const NOTE_ATTRIBUTE = {
  changedBy: 'changedBy',
  changeReason: 'changeReason',
  rollbackHash: 'rollbackHash',
} as const;

/** The most characters of `changedBy` or `changeReason` a revision keeps: history stays one line a revision. */
export const MAX_NOTE = 256;

export interface ChangeNote {
  changedBy?: string;
  changeReason?: string;
  /** `landlord rollback` wrote this very content: its marker names the hash the row has. */
  rollback?: true;
}

/** The note's attributes as read from a row: text, or undefined when absent or unusable. */
export type NoteText = Record<keyof typeof NOTE_ATTRIBUTE, string | undefined>;

/**
 * The note of a row whose content hashes to `hash`; undefined when the row carries none. The
 * rollback marker counts only while the content is what the rollback wrote: an edit made after it
 * that leaves the marker in place is an edit, not a rollback.
 */
export function changeNote(
  { changedBy, changeReason, rollbackHash }: NoteText,
  hash: string,
): ChangeNote | undefined {
  const rollback = rollbackHash === hash;
  if (changedBy === undefined && changeReason === undefined && !rollback) return undefined;
  return {
    ...(changedBy === undefined ? {} : { changedBy }),
    ...(changeReason === undefined ? {} : { changeReason }),
    ...(rollback ? { rollback: true as const } : {}),
  };
}
