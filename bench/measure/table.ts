// The results table printed at the end of a run: one row per N, fixed-width columns.

export interface Column<T> {
  title: string;
  value: (row: T) => string;
}

export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => c.value(row)));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: readonly string[]): string =>
    `| ${values.map((v, i) => v.padStart(widths[i]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 1) + ':').join('|')}|`;
  return [line(columns.map((c) => c.title)), rule, ...cells.map(line)].join('\n');
}

/** A number with fixed decimals, or "–" when it was not measured. */
export function fixed(value: number | undefined, digits = 1): string {
  return value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
}

/** Two whole numbers as "a/b" (a p50 and a p99), each "–" when it was not measured. */
export function pair(a: number | undefined, b: number | undefined): string {
  return `${fixed(a, 0)}/${fixed(b, 0)}`;
}
