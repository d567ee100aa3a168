// Pieces of problem messages. A row can carry secrets (an env value, a token in a ConfigMap) and
// its problems reach Tenant status, Events and logs, so whatever a message echoes is cut short.

/** The most characters of a row's value a message repeats. */
export const MAX_ECHO = 80;

/** `text` cut to `max` characters, with '…' marking the cut. */
export function truncate(text: string, max: number = MAX_ECHO): string {
  if (text.length <= max) {
    return text;
  }
  // Cutting between the halves of a surrogate pair would leave half a character in the message.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

/** `text` truncated and quoted, with control characters escaped so a message stays one line. */
export function quote(text: string): string {
  return JSON.stringify(truncate(text));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
