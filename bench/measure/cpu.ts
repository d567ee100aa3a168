// CPU time spent by each process the benchmark started (the control plane, moto, sync, operator,
// PostgreSQL), from /proc/<pid>/stat, with what its own children spent once they ended. On a two-core machine this says who the bottleneck is: a phase that
// keeps kube-apiserver and etcd busy is bound by them, whatever the client does.
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const TICKS_PER_SECOND = 100;

/** process name → CPU seconds (user + system) so far, summed over processes of that name. */
export type CpuTimes = Record<string, number>;

function nameOf(pid: string): string {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const main = args.findIndex((a) => a.endsWith('main.js'));
  if (main >= 0) return args[main + 1] ?? basename(args[main]!);
  if (args.some((a) => a.includes('moto'))) return 'moto';
  return basename(args[0] ?? pid);
}

/** CPU times of this process (as "bench") and of its direct children. */
export function childCpuTimes(): CpuTimes {
  const own = process.cpuUsage();
  const times: CpuTimes = { bench: (own.user + own.system) / 1e6 };
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the parenthesised command: state ppid ... utime(14) stime(15), 1-based overall.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      // Its own time and that of the children it has waited for: PostgreSQL's backend per connection.
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
      const seconds = ticks / TICKS_PER_SECOND;
      const name = nameOf(pid);
      times[name] = (times[name] ?? 0) + seconds;
    } catch {
      // The process ended between listing and reading: it has nothing more to report.
    }
  }
  return times;
}

/** CPU seconds each process used between two snapshots (processes that ended are left out). */
export function cpuDelta(before: CpuTimes, after: CpuTimes): CpuTimes {
  const result: CpuTimes = {};
  for (const [name, seconds] of Object.entries(after)) {
    result[name] = Math.round((seconds - (before[name] ?? 0)) * 10) / 10;
  }
  return result;
}
