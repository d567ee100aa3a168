// Just enough of a Dockerfile reader to check what the image holds without a Docker engine: the
// stages, their instructions with global ARG defaults substituted, and the arguments of COPY.

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  /** The image the stage starts from, ARGs substituted. */
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

export interface Copy {
  /** The stage copied from; undefined for the build context. */
  from: string | undefined;
  sources: string[];
  destination: string;
}

/** Logical lines: comments and blank lines dropped, backslash continuations joined. */
function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(`${pending}${line}`.trim());
    pending = '';
  }
  return lines.filter((line) => line !== '');
}

function substitute(text: string, args: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (match, braced?: string, bare?: string) => {
    const value = args[braced ?? bare ?? ''];
    return value ?? match;
  });
}

export function parseDockerfile(text: string): Stage[] {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logicalLines(text)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [image = '', as, name] = args.split(/\s+/);
      const from = substitute(image, globalArgs);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && upper === 'ARG') {
      const [key = '', value = ''] = args.split('=');
      globalArgs[key] = value;
    } else {
      stages.at(-1)?.instructions.push({ keyword: upper, args });
    }
  }
  return stages;
}

export function instructions(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

export function copies(stage: Stage): Copy[] {
  return instructions(stage, 'COPY').map((args) => {
    const words = args.split(/\s+/);
    const flags = words.filter((w) => w.startsWith('--'));
    const paths = words.filter((w) => !w.startsWith('--'));
    const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
    return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' };
  });
}

/** The stage's working directory (the last WORKDIR; Docker's default is /). */
export function workdir(stage: Stage): string {
  return instructions(stage, 'WORKDIR').at(-1) ?? '/';
}

/** ENV KEY=value pairs of the stage. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of instructions(stage, 'ENV')) {
    for (const pair of args.split(/\s+/)) {
      const [key = '', value = ''] = pair.split('=');
      env[key] = value;
    }
  }
  return env;
}
