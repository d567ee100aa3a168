// Kubernetes resource quantities ("500Mi", "1G", "1.5e3") as numbers: a size a row asks for against
// the class's maximum, and an applied value against the server's spelling of it ("0.5" is "500m"). Only what a quantity may spell: anything else is undefined,
// and the caller refuses it rather than guess.
const SUFFIXES: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|([a-zA-Z]*))$/;

/** The quantity's value (bytes, for a size), or undefined when the text is not a quantity. */
export function quantityValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = QUANTITY.exec(value);
  if (match === null) return undefined;
  const [, number = '', exponent, suffix = ''] = match;
  if (exponent !== undefined) return Number(`${number}${exponent}`);
  const factor = SUFFIXES[suffix];
  return factor === undefined ? undefined : Number(number) * factor;
}
