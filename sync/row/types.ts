// What parsing a row yields. Kept apart from the parser so each step can name these types.
import type { TenantSpec } from '../../api/tenant.js';
import type { ChangeNote } from '../../api/row-notes.js';

/** The row attribute a problem is about; `item` when the row as a whole could not be read. */
export type RowProblemAttribute =
  'name' | 'spec' | 'customizations' | 'deleted' | 'state' | 'class' | 'cluster' | 'hosts' | 'item';

export interface RowProblem {
  attribute: RowProblemAttribute;
  /** Names the attribute (or the element within it) and the problem; never echoes a whole value. */
  message: string;
}

export type ParsedRow =
  /** `note`: who changed the row and why, when it says (note.ts); never part of the hash. */
  | { kind: 'tenant'; name: string; spec: TenantSpec; hash: string; note?: ChangeNote }
  | { kind: 'deleted'; name: string }
  /**
   * `name` is set when the name itself is valid, so the Tenant can say why its row was refused.
   * `deleted` is true when the row asked for deletion but its name was unusable.
   */
  | { kind: 'invalid'; name: string | undefined; problem: RowProblem; deleted: boolean };
