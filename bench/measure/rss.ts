// Memory of a child process from /proc: VmRSS sampled every second while it runs, and VmHWM (the
// kernel's own peak RSS, which catches spikes between samples) read just before it is stopped.
import { readFileSync } from 'node:fs';

const MIB = 1024 * 1024;

/** A field of /proc/<pid>/status in MiB (the kernel reports kB), or undefined once the process is gone. */
export function procStatusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match === null ? undefined : (Number(match[1]) * 1024) / MIB;
}

export interface MemoryReport {
  /** The kernel's high-water mark, read before stopping. */
  peakMiB: number;
  /** The highest VmRSS of the one-second samples. */
  sampledPeakMiB: number;
  /** The last VmRSS sample: what the process holds in its steady state. */
  lastMiB: number;
  samples: number;
}

export class RssSampler {
  private readonly timer: NodeJS.Timeout;
  private sampledPeak = 0;
  private last = 0;
  private count = 0;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 1_000);
    this.timer.unref();
  }

  private sample(): void {
    const rss = procStatusMiB(this.pid, 'VmRSS');
    if (rss === undefined) return;
    this.count += 1;
    this.last = rss;
    this.sampledPeak = Math.max(this.sampledPeak, rss);
  }

  /** Call while the process still runs: reads VmHWM and stops sampling. */
  finish(): MemoryReport {
    this.sample();
    clearInterval(this.timer);
    const hwm = procStatusMiB(this.pid, 'VmHWM') ?? this.sampledPeak;
    const round = (mib: number): number => Math.round(mib * 10) / 10;
    return {
      peakMiB: round(hwm),
      sampledPeakMiB: round(this.sampledPeak),
      lastMiB: round(this.last),
      samples: this.count,
    };
  }
}
