// The control plane's processes by name, as Cluster runs them: each started with its log in one
// directory, an unexpected exit reported (nothing else would notice a component dying mid-run), a
// start-up wait aborted with the log of the one that died, and all stopped in the order given.
import { startProcess, type ManagedProcess } from './process.js';

/** Throws with the end of its log if the process has exited: an `abortIf` for start-up waits. */
export async function assertRunning(proc: ManagedProcess): Promise<void> {
  if (!proc.running) throw new Error(`${proc.name} exited during start-up:\n${await proc.lastLines()}`);
}

export class ProcessGroup<Name extends string> {
  private readonly processes = new Map<Name, ManagedProcess>();
  private stopping = false;

  constructor(
    private readonly logDir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts `name`, replacing an earlier process of that name (a restart). */
  spawn(name: Name, command: string, args: string[]): ManagedProcess {
    const proc = startProcess({ name, command, args, logDir: this.logDir });
    this.processes.set(name, proc);
    void proc.exited.then((code) => {
      if (!this.stopping && this.processes.get(name) === proc)
        this.log(`${name} exited (${code}); see ${proc.logFile}`);
    });
    return proc;
  }

  /** assertRunning for every process started so far. */
  async assertAllRunning(): Promise<void> {
    for (const proc of this.processes.values()) await assertRunning(proc);
  }

  signal(name: Name, signal: NodeJS.Signals): void {
    this.processes.get(name)?.signal(signal);
  }

  /** Stops `name` on purpose (a restart, the end of a run): its exit is not reported. */
  async stop(name: Name): Promise<void> {
    const proc = this.processes.get(name);
    this.processes.delete(name);
    await proc?.stop();
  }

  /** From here on an exit is expected, and not reported. */
  markStopping(): void {
    this.stopping = true;
  }

  /** Stops them one at a time, in this order (names never started are skipped). */
  async stopAll(order: readonly Name[]): Promise<void> {
    this.markStopping();
    for (const name of order) await this.stop(name);
  }
}
