// A child process of the harness: output to a log file, a readable failure when it dies early,
// and a stop that escalates from SIGTERM to SIGKILL so nothing outlives the run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  readonly running: boolean;
  signal(signal: NodeJS.Signals): void;
  stop(graceMs?: number): Promise<void>;
  lastLines(count?: number): Promise<string>;
}

export interface StartOptions {
  name: string;
  command: string;
  args: string[];
  logDir: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

const live = new Set<ChildProcess>();

// A last resort for an abrupt exit of the harness itself (an uncaught error, process.exit).
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function startProcess(options: StartOptions): ManagedProcess {
  const logFile = join(options.logDir, `${options.name}.log`);
  const out = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl-C in the terminal reaches the harness, which stops the
    // components in order, instead of every component dying at once.
    detached: true,
  });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  live.add(child);
  let running = true;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (err) => {
      running = false;
      live.delete(child);
      out.write(`spawn failed: ${err.message}\n`);
      resolve('spawn-error');
    });
  });
  const lastLines = async (count = 25): Promise<string> => {
    const text = await readFile(logFile, 'utf8').catch(() => '');
    return text.split('\n').slice(-count).join('\n');
  };
  return {
    name: options.name,
    pid: child.pid ?? -1,
    logFile,
    exited,
    get running() {
      return running;
    },
    signal: (signal) => {
      if (running) child.kill(signal);
    },
    stop: async (graceMs = 5_000) => {
      if (!running) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    lastLines,
  };
}
