// Summarises a V8 CPU profile (node --cpu-prof, or `npm run bench -- --profile`): where the
// process spent its own time, by function and by package, idle time left out.
//   node dist/bench/profile-summary.js <file.cpuprofile> [--top=25]
import { readFile } from 'node:fs/promises';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const IDLE = new Set(['(idle)']);

/** Self time in microseconds per node id: each sample's time goes to the node it hit. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the gap before sample i; the next gap is the time spent in this one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    times.set(id, (times.get(id) ?? 0) + us);
  });
  return times;
}

/** node_modules/@scope/pkg, node_modules/pkg, the repo's own top directory, node's internals. */
export function packageOf(url: string): string {
  if (url === '') return '(native/V8)';
  if (url.startsWith('node:')) return 'node (internal)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const dist = /\/dist\/([^/]+)\//.exec(url);
  return dist === null ? url : `landlord ${dist[1]}/`;
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + 1) : url;
}

function functionKey(frame: CallFrame): string {
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return frame.url === '' ? name : `${name}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

function aggregate(profile: CpuProfile, key: (frame: CallFrame) => string): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  for (const [id, us] of selfTimes(profile)) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined || IDLE.has(frame.functionName)) continue;
    const k = key(frame);
    totals.set(k, (totals.get(k) ?? 0) + us);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]);
}

function printRanking(title: string, rows: [string, number][], busyUs: number, top: number): void {
  console.log(`\n${title}`);
  console.log(`${'self ms'.padStart(9)} ${'%'.padStart(6)}  what`);
  for (const [what, us] of rows.slice(0, top)) {
    console.log(
      `${(us / 1000).toFixed(0).padStart(9)} ${((100 * us) / busyUs).toFixed(1).padStart(6)}  ${what}`,
    );
  }
}

export async function summarize(file: string, top: number): Promise<void> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byFunction = aggregate(profile, functionKey);
  const busyUs = byFunction.reduce((sum, [, us]) => sum + us, 0);
  const wallS = (profile.endTime - profile.startTime) / 1e6;
  console.log(`${file}\nwall ${wallS.toFixed(1)} s, on CPU ${(busyUs / 1e6).toFixed(1)} s (idle left out)`);
  printRanking(
    'by package (self time)',
    aggregate(profile, (f) => packageOf(f.url)),
    busyUs,
    top,
  );
  printRanking('by function (self time)', byFunction, busyUs, top);
}

const [file, ...rest] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node dist/bench/profile-summary.js <file.cpuprofile> [--top=25]');
  process.exitCode = 2;
} else {
  const top = Number(rest.find((a) => a.startsWith('--top='))?.slice(6) ?? 25);
  await summarize(file, top);
}
