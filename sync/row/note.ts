// Reading the row's change note (api/row-notes.ts) from DynamoDB attributes. A value of the wrong
// type is ignored rather than refused, since refusing a row over a note would hold back the edit it
// describes.
import { changeNote, MAX_NOTE, NOTE_ATTRIBUTE, type ChangeNote } from '../../api/row-notes.js';
import { readAttribute } from './attribute.js';
import { truncate } from './text.js';

function text(value: unknown): string | undefined {
  const attribute = readAttribute(value);
  return attribute?.tag === 'S' && attribute.value !== '' ? truncate(attribute.value, MAX_NOTE) : undefined;
}

/** The note of a row whose content hashes to `hash` (see changeNote); undefined when it carries none. */
export function readNote(item: Record<string, unknown>, hash: string): ChangeNote | undefined {
  const read = (attribute: string): string | undefined =>
    text(Object.hasOwn(item, attribute) ? item[attribute] : undefined);
  return changeNote(
    {
      changedBy: read(NOTE_ATTRIBUTE.changedBy),
      changeReason: read(NOTE_ATTRIBUTE.changeReason),
      rollbackHash: read(NOTE_ATTRIBUTE.rollbackHash),
    },
    hash,
  );
}
