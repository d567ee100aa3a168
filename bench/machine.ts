// What the numbers were measured on. The load average is recorded because this two-core machine
// is shared: a figure taken while other tests ran says so in its own record.
import { cpus, freemem, loadavg, release, totalmem, type as osType } from 'node:os';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  kernel: string;
  platform: string;
  loadAverage: number[];
}

const gib = (bytes: number): number => Math.round((bytes / 1024 ** 3) * 10) / 10;

export const loadAverage = (): number[] => loadavg().map((v) => Math.round(v * 100) / 100);

export function describeMachine(): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    node: process.version,
    kernel: `${osType()} ${release()}`,
    platform: `${process.platform}/${process.arch}`,
    loadAverage: loadAverage(),
  };
}
