// Which of the global setup's control planes a test file uses. vitest's VITEST_POOL_ID is not
// unique among the files running at once (seen: two files with pool 1 side by side), so each file's
// process claims a slot itself: it creates `<dir>/slot-<i>.lock` exclusively (O_EXCL), holding its
// pid, and removes it when the file ends (e2e/support/slot-release.ts) or the process exits. A lock
// whose process is gone is taken over, so a killed worker never holds a control plane forever.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const POLL_MS = 200;
const WAIT_MS = 600_000;

const lockPath = (dir: string, slot: number): string => join(dir, `slot-${slot}.lock`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryClaim(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = Number(readFileSync(path, { encoding: 'utf8', flag: 'r' }) || 0);
  if (holder === process.pid) return true;
  if (holder > 0 && alive(holder)) return false;
  // The holder is gone: take the stale lock over (another claimant may win the race; then retry).
  try {
    unlinkSync(path);
  } catch {
    // someone else removed it first
  }
  return false;
}

/** Sleeps without giving up the thread: claiming runs inside synchronous module initialisation. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

let claimed: { dir: string; slot: number } | undefined;

/** This process's slot among `count`, claimed on first call and kept until released. */
export function claimSlot(dir: string, count: number): number {
  if (claimed !== undefined) return claimed.slot;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    for (let slot = 0; slot < count; slot++) {
      if (!tryClaim(lockPath(dir, slot))) continue;
      claimed = { dir, slot };
      process.once('exit', releaseSlot);
      // Ports this process picks come from the slot's own band (harness/ports.ts).
      process.env.LANDLORD_PORT_BAND = String(slot + 1);
      return slot;
    }
    if (Date.now() > deadline)
      throw new Error(`no free e2e control plane among ${count} after ${WAIT_MS} ms`);
    sleepSync(POLL_MS);
  }
}

/** Gives the slot back, so the next file can run against that control plane. */
export function releaseSlot(): void {
  if (claimed === undefined) return;
  try {
    unlinkSync(lockPath(claimed.dir, claimed.slot));
  } catch {
    // already gone
  }
  claimed = undefined;
}
