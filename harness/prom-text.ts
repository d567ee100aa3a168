// A small reader of the Prometheus text format, enough for counters: each sample line becomes a
// name, its labels and a value. Comment and blank lines are skipped.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSample(line: string): Sample | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  const brace = line.indexOf('{');
  const space = line.lastIndexOf(' ');
  if (space < 0) return undefined;
  const name = brace >= 0 && brace < space ? line.slice(0, brace) : line.slice(0, space);
  const labels: Record<string, string> = {};
  if (brace >= 0 && brace < space) {
    const body = line.slice(brace + 1, line.lastIndexOf('}'));
    for (const match of body.matchAll(LABEL)) labels[match[1]!] = match[2]!;
  }
  return { name, labels, value: Number(line.slice(space + 1)) };
}

/** Every sample of the metric `name` in the exposition text. */
export function samplesOf(text: string, name: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map(parseSample)
    .filter((sample): sample is Sample => sample !== undefined && sample.name === name);
}

/** The sum of a metric's samples whose labels include every one given. */
export function sumOf(text: string, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(text, name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}
