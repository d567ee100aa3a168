// sync's row module: from a DynamoDB item to a tenant, a deletion or a refusal with its reason.
export { parseRow } from './parse.js';
export { readRow, SYNC_ROW_LIMITS } from './limits.js';
export { canonicalJson, rowHash } from './hash.js';
export { isDns1123Label } from '../../util/names.js';
export type { ParsedRow, RowProblem, RowProblemAttribute } from './types.js';
