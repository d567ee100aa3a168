// sync, operator and purger as the real CLI runs them (`node dist/cli/main.js sync|operator|purger`), one child
// process each, so that their memory, CPU profile and restarts are their own. Log lines go to a
// file; the few the benchmark waits on are kept in memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../harness/paths.js';
import { sumOf } from '../harness/prom-text.js';
import { deployedMemoryRequestBytes, imageEnv, nodeOptionsFor, type Sizing } from './deployed.js';
import { sleep } from './pool.js';
import { RssSampler, type MemoryReport } from './measure/rss.js';

export type LogLine = Record<string, unknown> & { msg?: string; level?: string; at: number };

export type ComponentName = 'operator' | 'sync' | 'purger';

/** Readings of the heap before a process is stopped, 0.5 s apart. */
const HEAP_READINGS = 6;

/** The V8 heap as the process reported it just before it was stopped. */
export interface HeapReport {
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
}

export interface SpawnOptions {
  name: ComponentName;
  /** A label for the log file and profile, e.g. "operator-restarted". */
  label: string;
  env: Record<string, string>;
  logDir: string;
  /** Write a CPU profile to this directory when the process exits. */
  profileDir?: string;
  /** Tenants in the run: beyond 5,000 the heap cap is raised as the manifests advise. */
  tenants?: number;
  /** How they are sized: the operator's cap is raised sooner for PerTenant ones, more with features (deployed.ts). */
  sizing?: Sizing;
  /** Node.js flags before the script (the image's ENTRYPOINT flags). */
  nodeFlags?: readonly string[];
  /** Run in this directory, writing a V8 heap snapshot there on SIGUSR2 (heapSnapshot()). */
  heapSnapshotDir?: string;
}

/** Messages worth keeping in memory; warnings and errors are always kept. */
const KEPT = new Set([
  'starting',
  'work loop running',
  'resync complete',
  'scan complete',
  'reading the table',
]);

const children = new Set<ChildProcess>();
process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));

export class ComponentProcess {
  readonly spawnedAt = performance.now();
  readonly lines: LogLine[] = [];
  readonly exited: Promise<number | string>;
  private readonly child: ChildProcess;
  private readonly sampler: RssSampler;
  private readonly waiters = new Set<() => void>();
  private alive = true;
  private stopping = false;
  private exitedWith: number | string | undefined;

  constructor(private readonly options: SpawnOptions) {
    const profile =
      options.profileDir === undefined
        ? []
        : [
            '--cpu-prof',
            `--cpu-prof-dir=${options.profileDir}`,
            `--cpu-prof-name=${options.label}.cpuprofile`,
          ];
    // node writes a snapshot asked for by signal into its working directory, whatever --diagnostic-dir says.
    const snapshots = options.heapSnapshotDir === undefined ? [] : ['--heapsnapshot-signal=SIGUSR2'];
    this.child = spawn(
      process.execPath,
      [
        ...(options.nodeFlags ?? []),
        ...profile,
        ...snapshots,
        join(repoRoot, 'dist', 'cli', 'main.js'),
        options.name,
      ],
      {
        ...(options.heapSnapshotDir === undefined ? {} : { cwd: options.heapSnapshotDir }),
        // As the image runs them (its ENV), with the deployed heap limits unless the run asked for
        // others (--node-options), and the memory request the downward API passes in a pod.
        env: {
          ...imageEnv(),
          NODE_OPTIONS: nodeOptionsFor(options.name, options.tenants, options.sizing),
          LANDLORD_MEMORY_REQUEST: String(deployedMemoryRequestBytes(options.name)),
          ...options.env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.add(this.child);
    this.sampler = new RssSampler(this.child.pid ?? -1);
    const file = createWriteStream(join(options.logDir, `${options.label}.log`));
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      createInterface({ input: stream }).on('line', (text) => this.take(text, file));
    }
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.alive = false;
        this.exitedWith = code ?? signal ?? 'unknown';
        children.delete(this.child);
        this.notify();
        file.end();
        resolve(code ?? signal ?? 'unknown');
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Why the process is gone when nobody stopped it (a crash, or a signal from outside). */
  get failure(): string | undefined {
    if (this.alive || this.stopping) return undefined;
    return `${this.options.label} exited unexpectedly (${String(this.exitedWith)}):\n${this.tail()}`;
  }

  private take(text: string, file: NodeJS.WritableStream): void {
    file.write(`${text}\n`);
    let line: LogLine;
    try {
      line = { ...(JSON.parse(text) as Record<string, unknown>), at: performance.now() };
    } catch {
      line = { msg: text, level: 'raw', at: performance.now() };
    }
    if (KEPT.has(line.msg ?? '') || line.level === 'warn' || line.level === 'error' || line.level === 'raw') {
      if (this.lines.length > 5_000) this.lines.splice(0, 1_000);
      this.lines.push(line);
      this.notify();
    }
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** The first kept line (after `from`, a performance.now() value) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs: number, from = 0): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.lines.find((l) => l.at >= from && match(l));
        if (found !== undefined) done(() => resolve(found));
        else if (!this.alive) done(() => reject(new Error(`${this.options.label} exited:\n${this.tail()}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`${this.options.label}: no matching log line in ${timeoutMs} ms`))),
        timeoutMs,
      );
      const done = (finish: () => void): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
        finish();
      };
      this.waiters.add(check);
      check();
    });
  }

  /**
   * The V8 heap from the process's metrics: the lowest of HEAP_READINGS readings 0.5 s apart, so
   * that the used figure is close to what survives a collection (live data, not garbage waiting).
   */
  private async heap(): Promise<HeapReport> {
    const readings: HeapReport[] = [];
    for (let i = 0; i < HEAP_READINGS && this.alive; i++) {
      if (i > 0) await sleep(500);
      const text = await this.metrics().catch(() => '');
      const mib = (name: string): number => Math.round((sumOf(text, name) / 2 ** 20) * 10) / 10;
      readings.push({
        heapUsedMiB: mib('landlord_nodejs_heap_size_used_bytes'),
        heapTotalMiB: mib('landlord_nodejs_heap_size_total_bytes'),
        externalMiB: mib('landlord_nodejs_external_memory_bytes'),
      });
    }
    const least = readings.reduce<HeapReport | undefined>(
      (a, b) => (a === undefined || b.heapUsedMiB < a.heapUsedMiB ? b : a),
      undefined,
    );
    return least ?? { heapUsedMiB: 0, heapTotalMiB: 0, externalMiB: 0 };
  }

  tail(count = 10): string {
    return this.lines
      .slice(-count)
      .map((l) => JSON.stringify(l))
      .join('\n');
  }

  async httpPort(): Promise<number> {
    const line = await this.waitForLog((l) => l.msg === 'starting' && typeof l.httpPort === 'number', 60_000);
    return Number(line.httpPort);
  }

  async metrics(): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${await this.httpPort()}/metrics`);
    return res.text();
  }

  /**
   * Has the process write a heap snapshot (started with heapSnapshotDir) and resolves to its path
   * once written: node writes it on the main thread, so the file is whole when the process answers
   * again.
   */
  async heapSnapshot(timeoutMs: number): Promise<string> {
    const dir = this.options.heapSnapshotDir;
    if (dir === undefined) throw new Error(`${this.options.label} was not started to write heap snapshots`);
    const before = new Set(readdirSync(dir));
    this.child.kill('SIGUSR2');
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const made = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
      if (made !== undefined) {
        await this.metrics();
        return join(dir, made);
      }
      if (this.failure !== undefined) throw new Error(this.failure);
      if (performance.now() > deadline)
        throw new Error(`${this.options.label} wrote no heap snapshot in ${timeoutMs} ms`);
      await sleep(200);
    }
  }

  /**
   * Reads the peak RSS and the V8 heap (from the process's own metrics: live data versus what the
   * heap merely holds on to), then SIGTERM: finish in-flight work, exit (and write the CPU profile).
   */
  async stop(): Promise<MemoryReport & HeapReport> {
    this.stopping = true;
    const heap = await this.heap();
    const memory = { ...this.sampler.finish(), ...heap };
    if (this.alive) this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
    return memory;
  }
}

export function stopAllComponents(): void {
  children.forEach((child) => child.kill('SIGKILL'));
}
