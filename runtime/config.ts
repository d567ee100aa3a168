// Configuration from environment variables, checked before anything starts: a bad value stops the
// component with one line that names the variable and says what would be accepted, instead of
// failing later in a way that points nowhere near the cause.
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';

type SettingType = 'string' | 'integer' | 'number' | 'boolean';

/** The JSON schema of one parsed value: the subset that describes a scalar setting. */
export interface SettingSchema {
  type: SettingType;
  enum?: readonly (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}

export interface SettingSpec {
  /** The environment variable. */
  env: string;
  /** What the setting means, for error messages and help. */
  description: string;
  /** Used when the variable is unset or empty; it goes through the same parsing and checks. */
  default?: string;
  schema: SettingSchema;
  /** Never print the value: not in errors, not in help. */
  secret?: boolean;
  /** Without a default, a missing variable is an error unless the setting is optional (then undefined). */
  optional?: boolean;
  /**
   * The variable's name before settings were named after their component. Still read when the
   * current name is unset, so an upgrade does not silently drop a deployed setting; the component
   * logs a warning naming both (formerNamesInUse).
   */
  formerEnv?: string;
}

/** The settings object a spec set describes, for `loadSettings<SettingsOf<typeof specs>>(specs, env)`. */
export type SettingsOf<S extends Record<string, SettingSpec>> = {
  [K in keyof S]: S[K] extends { optional: true }
    ? ValueOf<S[K]['schema']> | undefined
    : ValueOf<S[K]['schema']>;
};

type ValueOf<Schema extends SettingSchema> = Schema extends { enum: readonly (infer E)[] }
  ? E
  : Schema['type'] extends 'boolean'
    ? boolean
    : Schema['type'] extends 'string'
      ? string
      : number;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// strict: a schema keyword that does not apply to its type is a mistake in the spec, not a no-op.
const ajv = new Ajv({ strict: true, allErrors: false });
const validators = new WeakMap<SettingSchema, ValidateFunction>();

/**
 * Reads every setting from `env`: parses the text into the schema's type, applies the default,
 * validates, and throws a ConfigError about the first setting (in spec order) that is not right.
 * An empty variable counts as unset, which is how an empty `value:` in a manifest reads.
 */
export function loadSettings<T>(specs: Record<keyof T & string, SettingSpec>, env: NodeJS.ProcessEnv): T {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries<SettingSpec>(specs)) {
    out[name] = loadSetting(spec, rawValue(spec, env));
  }
  // The loop filled exactly the keys of T, each checked against its schema.
  return out as T;
}

const isSet = (text: string | undefined): text is string => text !== undefined && text !== '';

/** The variable's text, under its current name or else its former one; both set and different is an error. */
function rawValue(spec: SettingSpec, env: NodeJS.ProcessEnv): string | undefined {
  const current = env[spec.env];
  const former = spec.formerEnv === undefined ? undefined : env[spec.formerEnv];
  if (!isSet(former)) return current;
  if (!isSet(current)) return former;
  if (current === former) return current;
  throw new ConfigError(
    `${spec.env} and ${spec.formerEnv} (its former name) are both set, to different values: set only ${spec.env}`,
  );
}

/** One warning per setting read under its former name, for the component to log at start-up. */
export function formerNamesInUse(specs: Record<string, SettingSpec>, env: NodeJS.ProcessEnv): string[] {
  return Object.values(specs)
    .filter((spec) => spec.formerEnv !== undefined && isSet(env[spec.formerEnv]) && !isSet(env[spec.env]))
    .map(
      (spec) => `${spec.formerEnv} is read as ${spec.env}, its new name; rename it before the old name goes`,
    );
}

function loadSetting(spec: SettingSpec, raw: string | undefined): unknown {
  const fromEnv = isSet(raw);
  const text = fromEnv ? raw : spec.default;
  if (text === undefined) {
    if (spec.optional === true) return undefined;
    throw new ConfigError(`${spec.env} is required: ${spec.description}`);
  }
  const value = parse(text, spec.schema.type);
  if (value === undefined || !validator(spec.schema)(value)) {
    const origin = fromEnv ? '' : ' (the default)';
    throw new ConfigError(`${spec.env}=${shown(spec, text)}${origin}: expected ${expected(spec.schema)}`);
  }
  return value;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Strict parsing: the whole text must be the value; undefined when it is not. */
function parse(text: string, type: SettingType): string | number | boolean | undefined {
  switch (type) {
    case 'string':
      return text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'integer': {
      const value = INTEGER.test(text) ? Number(text) : Number.NaN;
      return Number.isSafeInteger(value) ? value : undefined;
    }
    case 'number': {
      const value = NUMBER.test(text) ? Number(text) : Number.NaN;
      return Number.isFinite(value) ? value : undefined;
    }
  }
}

function validator(schema: SettingSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const MAX_SHOWN = 60;

function shown(spec: SettingSpec, text: string): string {
  if (spec.secret === true) return '"***"';
  const cut = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
  // JSON quoting keeps the message on one line whatever the value holds.
  return JSON.stringify(cut);
}

const NOUN: Record<SettingType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
};

/** What a schema accepts, in words: "an integer ≥ 1 and ≤ 64", "one of debug, info". */
export function expected(schema: SettingSchema): string {
  if (schema.enum !== undefined) return `one of ${schema.enum.map(String).join(', ')}`;
  const limits = [
    schema.minimum === undefined ? undefined : `≥ ${schema.minimum}`,
    schema.exclusiveMinimum === undefined ? undefined : `> ${schema.exclusiveMinimum}`,
    schema.maximum === undefined ? undefined : `≤ ${schema.maximum}`,
    schema.exclusiveMaximum === undefined ? undefined : `< ${schema.exclusiveMaximum}`,
    schema.minLength === undefined ? undefined : `of at least ${schema.minLength} characters`,
    schema.maxLength === undefined ? undefined : `of at most ${schema.maxLength} characters`,
    schema.pattern === undefined ? undefined : `matching /${schema.pattern}/`,
  ].filter((limit) => limit !== undefined);
  return [NOUN[schema.type], limits.join(' and ')].filter((part) => part !== '').join(' ');
}

/**
 * A help table of the settings: variable, default and meaning, aligned for a terminal (`text`) or
 * as a Markdown table for docs/configuration.md (`markdown`).
 */
export function describeSettings(
  specs: Record<string, SettingSpec>,
  format: 'text' | 'markdown' = 'text',
): string {
  const list = Object.values(specs);
  return format === 'markdown' ? markdownTable(list) : textTable(list);
}

type Row = readonly [string, string, string];

function textTable(specs: readonly SettingSpec[]): string {
  const rows: Row[] = [
    ['VARIABLE', 'DEFAULT', 'MEANING'],
    ...specs.map((spec): Row => [spec.env, defaultCell(spec, (text) => text || '""'), meaning(spec)]),
  ];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) => `${row[0].padEnd(widths[0]!)}  ${row[1].padEnd(widths[1]!)}  ${row[2]}`)
    .join('\n');
}

function markdownTable(specs: readonly SettingSpec[]): string {
  const code = (text: string): string => `\`${text}\``;
  const line = (row: Row): string => `| ${row.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  const rows = specs.map((spec): Row => [code(spec.env), defaultCell(spec, code), meaning(spec)]);
  return [line(['Variable', 'Default', 'Meaning']), '|---|---|---|', ...rows.map(line)].join('\n');
}

function defaultCell(spec: SettingSpec, quote: (text: string) => string): string {
  if (spec.default === undefined) return spec.optional === true ? '(unset)' : '(required)';
  return spec.secret === true ? '***' : quote(spec.default);
}

function meaning(spec: SettingSpec): string {
  const accepts = expected(spec.schema);
  return accepts === NOUN.string ? spec.description : `${spec.description} (${accepts})`;
}
