// The data tables a purge empties, as configured: which table, which attribute is its partition
// key, and how a tenant's name becomes that key's value. Checked before anything starts, so a
// mistake is one line naming the entry instead of a purge that deletes the wrong partition.
import { Ajv, type ErrorObject } from 'ajv';
import { fillName, NAME_PLACEHOLDER as NAME } from '../../api/tenantclass.js';

export interface DataTableSpec {
  table: string;
  /** The table's HASH key attribute; a purge never selects on anything else. */
  partitionKey: string;
  /** The partition key's value for a tenant: `{name}` stands for the tenant's name, exactly once. */
  valueTemplate: string;
}

// DynamoDB's own limits on table and attribute names, so that a typo fails here and not at 3 a.m.
const SCHEMA = {
  type: 'array',
  items: {
    type: 'object',
    required: ['table', 'partitionKey', 'valueTemplate'],
    additionalProperties: false,
    properties: {
      table: { type: 'string', pattern: '^[A-Za-z0-9_.-]{3,255}$' },
      partitionKey: { type: 'string', minLength: 1, maxLength: 255 },
      valueTemplate: { type: 'string', minLength: NAME.length, maxLength: 1024 },
    },
  },
} as const;

const ajv = new Ajv({ strict: true, allErrors: false });
const validate = ajv.compile<DataTableSpec[]>(SCHEMA);

/** The partition key value of this tenant in this table. */
export function partitionValueFor(spec: DataTableSpec, tenantName: string): string {
  checkTemplate(spec.valueTemplate);
  return fillName(spec.valueTemplate, tenantName);
}

/**
 * The data tables from their JSON text (an array of DataTableSpec). Throws an Error naming the
 * first bad entry and what is wrong with it.
 */
export function parseDataTables(json: string): DataTableSpec[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new Error(`data tables: not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (!validate(value)) throw new Error(schemaMessage(value, validate.errors?.[0]));
  const seen = new Set<string>();
  value.forEach((spec, index) => {
    const problem =
      templateProblem(spec.valueTemplate) ?? (seen.has(spec.table) ? 'listed twice' : undefined);
    if (problem !== undefined) throw new Error(`${entryName(spec, index)}: ${problem}`);
    seen.add(spec.table);
  });
  return value;
}

function checkTemplate(template: string): void {
  const problem = templateProblem(template);
  if (problem !== undefined) throw new Error(`valueTemplate ${JSON.stringify(template)}: ${problem}`);
}

/** Exactly one `{name}`: none would purge one fixed partition for every tenant. */
function templateProblem(template: string): string | undefined {
  const count = template.split(NAME).length - 1;
  if (count === 1) return undefined;
  return `valueTemplate ${JSON.stringify(template)} must contain ${NAME} exactly once (found ${count})`;
}

function entryName(spec: unknown, index: number): string {
  const table = (spec as { table?: unknown } | undefined)?.table;
  return `data table ${index}${typeof table === 'string' ? ` (${JSON.stringify(table)})` : ''}`;
}

function schemaMessage(value: unknown, error: ErrorObject | undefined): string {
  if (error === undefined) return 'data tables: invalid';
  const [, index, ...field] = error.instancePath.split('/');
  if (index === undefined || index === '')
    return `data tables: must be a JSON array of {table, partitionKey, valueTemplate}`;
  const spec = (value as unknown[])[Number(index)];
  const where = field.length > 0 ? `${field.join('.')} ` : '';
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String((error.params as { additionalProperty?: unknown }).additionalProperty)})`
      : '';
  return `${entryName(spec, Number(index))}: ${where}${error.message ?? 'is invalid'}${extra}`;
}
