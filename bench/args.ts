// Command-line options of `npm run bench`: which sizes to run and how thoroughly. The defaults are
// the full benchmark of the issue; --quick is the CI smoke run that keeps the harness working.
// commander parses them, as it does the landlord CLI's.
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { repoRoot } from '../harness/paths.js';
import { DATABASE_ENGINES, type DatabaseEngine } from '../api/tenantclass.js';
import { imageNodeFlags } from './deployed.js';
import { SECRET_SOURCE_NAMESPACE } from './secrets.js';

/** The pooled class's warm members in the warmpool and signups scenarios, unless --signup-pool says. */
export const POOL = 20;

export interface BenchOptions {
  quick: boolean;
  /** Tenant counts, one fresh cluster (per scenario) each. */
  sizes: number[];
  /** Edits per mode (stream, poll). */
  edits: number;
  /** Run sync and operator under `node --cpu-prof`, profiles in the results directory. */
  profile: boolean;
  /**
   * After each landlord run, one more operator's heap snapshot, read as bytes per Tenant by what
   * holds them (heap-by-kind.ts).
   */
  heapByKind: boolean;
  /** Where results/<timestamp>.json and latest.json go. */
  outDir: string;
  /** Skip the baseline (to rerun landlord alone on a disturbed size); the ratio is then absent. */
  baseline: boolean;
  /**
   * NODE_OPTIONS for sync and operator, e.g. a heap cap, to see what memory settings cost;
   * undefined: each runs with its own manifest's (config/manager/<component>.yaml).
   */
  nodeOptions: string | undefined;
  /** Node.js flags before the script, as the image's ENTRYPOINT has them (V8 flags NODE_OPTIONS refuses). */
  nodeFlags: string[];
  /** Which scenarios run: landlord (with its baseline, per size), the same PerTenant, signups with and without a warm pool (per size), the purge engine, many clusters, memory at rest. */
  scenarios: Scenario[];
  /** Rows of the many-clusters scenario, split among its three clusters. */
  multiclusterSize: number;
  /** PerTenant runs: the class exposes every tenant (a Service and an Ingress each, issue 40). */
  expose: boolean;
  /**
   * PerTenant runs: the class copies two Secrets into every tenant namespace, a shared one and one
   * of the tenant's own, from sources made before the run (issue 39).
   */
  secrets: boolean;
  /**
   * PerTenant runs: the class's Services are headless (services.headless), in landlord and the
   * baseline alike: none waits on the cluster's one-at-a-time ClusterIP allocator.
   */
  headlessServices: boolean;
  /** Whether Deployments run a pod (false with --no-pods: replicas 0, in the rows and the baseline alike). */
  pods: boolean;
  /**
   * PerTenant runs: sync tells each row its tenant's readiness (LANDLORD_SYNC_ROW_STATUS). Set by the
   * fullfeature scenario for its full side, not a flag of its own.
   */
  rowStatus: boolean;
  /** Deployments per row (services of one tenant); the fullfeature scenario's full side sets it. */
  services: number;
  /**
   * PerTenant runs: the class gives every tenant a database of its own, on a server the
   * run starts (bench/databases.ts). Set by the fullfeature scenario for its full side.
   */
  databases: boolean;
  /**
   * The engine of those databases: postgres (the default) or mysql, served by MariaDB, whose CREATE
   * DATABASE makes a directory where PostgreSQL 15 copies a ~7 MB template: 5,000 tenants fit a disk.
   */
  databaseEngine: DatabaseEngine;
  /**
   * sync's DynamoDB calls counted by operation through a loopback proxy (bench/dynamo-calls.ts):
   * what row status costs the table. Set by the fullfeature scenario for both its sides.
   */
  dynamoCalls: boolean;
  /** The signups scenario: rows written per second, for how many seconds, and edits of running rows per second. */
  signups: SignupOptions;
}

export interface SignupOptions {
  rate: number;
  seconds: number;
  editRate: number;
  /** Warm members the pooled class keeps: sized to the pooled signups arriving while one starts. */
  pool: number;
}

export const SCENARIOS = [
  'landlord',
  'pertenant',
  'fullfeature',
  'warmpool',
  'signups',
  'purge',
  'multicluster',
  'rest',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

const FULL_SIZES = [100, 1000, 5000, 10_000, 20_000];
const QUICK_SIZES = [50];
/** The e2e's 300 rows: 100 per cluster. */
const MULTICLUSTER_SIZE = 300;

function positiveInts(text: string): number[] {
  const values = text.split(',').map((part) => Number(part.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 1)) {
    throw new InvalidArgumentError('expected positive integers separated by commas');
  }
  return values;
}

function scenarioList(text: string): Scenario[] {
  const names = text.split(',').map((part) => part.trim());
  const unknown = names.filter((name) => !(SCENARIOS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new InvalidArgumentError(`expected some of ${SCENARIOS.join(', ')} separated by commas`);
  }
  return names as Scenario[];
}

/** --multicluster or --signups alone; else the list asked for; else all (--quick: the four quick ones). */
function scenariosOf(flags: Flags, quick: boolean): Scenario[] {
  if (flags.multicluster) return ['multicluster'];
  if (flags.signups) return ['signups'];
  return flags.scenarios ?? (quick ? ['landlord', 'pertenant', 'purge', 'rest'] : [...SCENARIOS]);
}

function positiveInt(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError('expected a positive integer');
  return value;
}

interface Flags {
  quick?: true;
  sizes?: number[];
  edits?: number;
  profile?: true;
  heapByKind?: true;
  out?: string;
  baseline: boolean;
  nodeOptions?: string;
  nodeFlags?: string;
  scenarios?: Scenario[];
  multicluster?: true;
  pods: boolean;
  expose?: true;
  secrets?: true;
  headlessServices?: true;
  signups?: true;
  signupRate: number;
  signupSeconds: number;
  signupEditRate: number;
  signupPool: number;
  databaseEngine: DatabaseEngine;
}

function databaseEngine(text: string): DatabaseEngine {
  const engine = DATABASE_ENGINES.find((e) => e === text);
  if (engine === undefined) throw new InvalidArgumentError(`expected one of ${DATABASE_ENGINES.join(', ')}`);
  return engine;
}

function positiveNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new InvalidArgumentError('expected a positive number');
  return value;
}

function nonNegativeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError('expected a number ≥ 0');
  return value;
}

/** The bench's command line. exitOverride: a usage mistake or --help throws a CommanderError. */
export function benchCommand(): Command {
  return new Command('npm run bench --')
    .description('The benchmarks: landlord against the client-node baseline on fresh clusters.')
    .option('--quick', 'N=50, 10 edits per mode: a smoke run of the whole harness (1-2 minutes)')
    .option('--sizes <list>', 'tenant counts to run (default 100,1000,5000,10000,20000)', positiveInts)
    .option(
      '--edits <count>',
      'edits per mode, stream and poll (PerTenant: stream only; default 100; quick: 10)',
      positiveInt,
    )
    .option('--profile', 'run sync and operator with node --cpu-prof; profiles go next to the results')
    .option(
      '--heap-by-kind',
      "after each landlord run, start one more operator, take a V8 heap snapshot after its first resync (next to the results) and print what each cache and index of it retains per Tenant; the run's own figures are untouched (snapshots over 500 MB, beyond ~10,000 tenants, are written but not read)",
    )
    .option('--out <dir>', 'results directory (default bench/results)')
    .option('--no-baseline', 'skip the client-node baseline (no ratio)')
    .option(
      '--scenarios <list>',
      "what to run: landlord (sync + operator against the baseline, per size), pertenant (the same under the PerTenant default class standard, against a baseline making each tenant's namespace and its objects; edits through the stream only), fullfeature (pertenant beside the same with every feature on: two Secret copies, a Service and an Ingress, revision history, row status, two Deployments per row with a Service each, a database per tenant on a server the run starts (--database-engine); full over plain), warmpool (row-to-Ready of signups with a warm pool and without, an app that takes 20 s to start, on a cluster running N tenants), purge (the data purge engine against a sequential delete), signups (rows written at a steady rate, a cold and a pooled class, while running rows are edited and the default class rolls out: row-to-Ready percentiles and where the time goes), multicluster (three clusters, one table), rest (memory of each component at rest, no tenant); default all (--quick: landlord, pertenant, purge, rest)",
      scenarioList,
    )
    .option(
      '--multicluster',
      'only the many-clusters scenario (same as --scenarios multicluster): three clusters fed from one table, edit latency by cluster (N: the first size, default 300)',
    )
    .option(
      '--signups',
      'only the signups scenario (same as --scenarios signups): N tenants running, rows written at --signup-rate for --signup-seconds, half of a pooled class and half of a cold one',
    )
    .option('--signup-rate <rows>', 'signups: rows written per second (default 10)', positiveNumber, 10)
    .option('--signup-seconds <s>', 'signups: how long rows are written (default 60)', positiveInt, 60)
    .option(
      '--signup-edit-rate <edits>',
      "signups: edits per second of running tenants' rows meanwhile (default 2; 0: none)",
      nonNegativeNumber,
      2,
    )
    .option(
      '--signup-pool <members>',
      "signups: the pooled class's warm members (default 20; a pool answers every signup only when it holds the pooled signups arriving while a member starts: rate / 2 × app start)",
      positiveInt,
      POOL,
    )
    .option(
      '--expose',
      'PerTenant runs: the class exposes every tenant (a Service and an Ingress each), in landlord and the baseline alike',
    )
    .option(
      '--secrets',
      `PerTenant runs: the class copies two Secrets into every tenant namespace (a shared one and the tenant's own <tenant>-db, sources in ${SECRET_SOURCE_NAMESPACE} made before the run), in landlord and the baseline alike`,
    )
    .option(
      '--headless-services',
      "PerTenant runs: the class's Services are headless (services.headless: no ClusterIP, so none waits on the cluster's one-at-a-time allocator), in landlord and the baseline alike",
    )
    .option(
      '--database-engine <engine>',
      "fullfeature: the engine of each tenant's database, postgres or mysql (served by MariaDB, whose databases are directories where PostgreSQL 15 copies ~7 MB each: 5,000 of those need ~37 GB a side)",
      databaseEngine,
      'postgres',
    )
    .option(
      '--no-pods',
      "Deployments with replicas: 0, in landlord's rows and the baseline alike: no pod is scheduled or started, so the run measures the part landlord controls",
    )
    .option(
      '--node-options <opts>',
      "NODE_OPTIONS for sync and operator (default: each its own manifest's, config/manager/<component>.yaml; --node-options= for none)",
    )
    .option(
      '--node-flags <flags>',
      "node's own flags for the components, before the script (default: those of the Dockerfile's ENTRYPOINT; --node-flags= for none)",
    )
    .helpOption('-h, --help', 'print help')
    .exitOverride();
}

/** The options for these arguments; throws a CommanderError (already printed) for --help or a mistake. */
export function parseArgs(args: readonly string[]): BenchOptions {
  const flags = benchCommand().parse(args, { from: 'user' }).opts<Flags>();
  const quick = flags.quick === true;
  return {
    quick,
    sizes: flags.sizes ?? (quick ? QUICK_SIZES : FULL_SIZES),
    multiclusterSize: flags.multicluster ? (flags.sizes?.[0] ?? MULTICLUSTER_SIZE) : MULTICLUSTER_SIZE,
    edits: flags.edits ?? (quick ? 10 : 100),
    profile: flags.profile === true,
    heapByKind: flags.heapByKind === true,
    outDir: resolve(flags.out ?? resolve(repoRoot, 'bench', 'results')),
    baseline: flags.baseline,
    // Each component's deployed value unless asked otherwise (--node-options= runs with Node's defaults).
    nodeOptions: flags.nodeOptions,
    nodeFlags:
      flags.nodeFlags === undefined ? imageNodeFlags() : flags.nodeFlags.split(/\s+/).filter(Boolean),
    scenarios: scenariosOf(flags, quick),
    pods: flags.pods,
    expose: flags.expose === true,
    secrets: flags.secrets === true,
    headlessServices: flags.headlessServices === true,
    rowStatus: false,
    services: 1,
    databases: false,
    databaseEngine: flags.databaseEngine,
    dynamoCalls: false,
    signups: {
      rate: flags.signupRate,
      seconds: flags.signupSeconds,
      editRate: flags.signupEditRate,
      pool: flags.signupPool,
    },
  };
}
