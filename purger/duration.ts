// Durations as Go and Kubernetes users write them (`24h`, `90s`, `1h30m`, `0s`), so the purge delay
// reads the same in a manifest, a Helm value and the docs. Pure.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/** One number and its unit, e.g. "1.5h"; the whole text is a sequence of these. */
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;

/**
 * Milliseconds in a Go-style duration: one or more decimal numbers each with a unit (ns, us, µs,
 * ms, s, m, h), or a bare `0`. No sign: a delay is never negative. Undefined when the text is not
 * a duration.
 */
export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  if (text === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < text.length) {
    const match = PART.exec(text);
    if (match === null) return undefined;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
  }
  return Number.isFinite(total) ? Math.round(total) : undefined;
}

/** A duration for people: whole hours, minutes and seconds as Go prints them ("24h0m0s" → "24h"). */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', s > 0 ? `${s}s` : ''].join('');
}
