// Command-line options of `npm run bench`: which sizes to run and how thoroughly. The defaults are
// the full benchmark of the issue; --quick is the CI smoke run that keeps the harness working.
import { resolve } from 'node:path';
import { repoRoot } from '../harness/paths.js';
import { deployedNodeOptions } from './deployed.js';

export interface BenchOptions {
  quick: boolean;
  /** Tenant counts, one fresh cluster (per scenario) each. */
  sizes: number[];
  /** Edits per mode (stream, poll). */
  edits: number;
  /** Run sync and operator under `node --cpu-prof`, profiles in the results directory. */
  profile: boolean;
  /** Where results/<timestamp>.json and latest.json go. */
  outDir: string;
  /** Skip the baseline (to rerun landlord alone on a disturbed size); the ratio is then absent. */
  baseline: boolean;
  /** NODE_OPTIONS for sync and operator, e.g. a heap cap, to see what memory settings cost. */
  nodeOptions: string | undefined;
}

const FULL_SIZES = [100, 1000, 5000];
const QUICK_SIZES = [50];

export const USAGE = `Usage: npm run bench -- [options]

  --quick         N=50, 10 edits per mode: a smoke run of the whole harness (1-2 minutes)
  --sizes=LIST    tenant counts to run (default 100,1000,5000)
  --edits=COUNT   edits per mode, stream and poll (default 100; quick: 10)
  --profile       run sync and operator with node --cpu-prof; profiles go next to the results
  --out=DIR       results directory (default bench/results)
  --no-baseline   skip the client-node baseline (no ratio)
  --node-options=OPTS  NODE_OPTIONS for sync and operator (default: those of config/manager/operator.yaml)
`;

function positiveInts(text: string, flag: string): number[] {
  const values = text.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v < 1)) {
    throw new Error(`${flag}: expected positive integers separated by commas, got "${text}"`);
  }
  return values;
}

function valueOf(args: readonly string[], flag: string): string | undefined {
  const arg = args.find((a) => a.startsWith(`${flag}=`));
  return arg?.slice(flag.length + 1);
}

const KNOWN = [
  '--quick',
  '--profile',
  '--no-baseline',
  '--sizes',
  '--edits',
  '--out',
  '--node-options',
  '--help',
];

export function parseArgs(args: readonly string[]): BenchOptions {
  const unknown = args.filter((a) => !KNOWN.includes(a.split('=')[0]!));
  if (unknown.length > 0) throw new Error(`unknown option ${unknown.join(' ')}\n\n${USAGE}`);
  const quick = args.includes('--quick');
  const sizes = valueOf(args, '--sizes');
  const edits = valueOf(args, '--edits');
  const out = valueOf(args, '--out');
  return {
    quick,
    sizes: sizes === undefined ? (quick ? QUICK_SIZES : FULL_SIZES) : positiveInts(sizes, '--sizes'),
    edits: edits === undefined ? (quick ? 10 : 100) : positiveInts(edits, '--edits')[0]!,
    profile: args.includes('--profile'),
    outDir: resolve(out ?? resolve(repoRoot, 'bench', 'results')),
    baseline: !args.includes('--no-baseline'),
    // The deployed value unless asked otherwise (--node-options= runs with Node's defaults).
    nodeOptions: valueOf(args, '--node-options') ?? deployedNodeOptions(),
  };
}
