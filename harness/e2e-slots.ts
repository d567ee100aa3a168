// Which of the global setup's control planes a test file uses. vitest's VITEST_POOL_ID is not
// unique among the files running at once (seen: two files with pool 1 side by side), so each file's
// process claims a slot itself: it creates `<dir>/slot-<i>.lock` exclusively (a hard link, which
// fails if the lock exists), holding its pid, and removes it when the file ends
// (e2e/support/slot-release.ts) or the process exits. A lock whose process is gone is taken over,
// so a killed worker never holds a control plane forever.
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
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

/**
 * Creates the lock with this process's pid already in it: written aside, then linked into place,
 * which fails if the lock exists. Created empty and written after, a lock could be read in between
 * as holding no pid, taken for stale and removed: two files then ran against one control plane, and
 * each saw the other's operator act on its Tenants.
 */
function tryClaim(path: string): boolean {
  const own = `${path}.${process.pid}`;
  writeFileSync(own, String(process.pid));
  try {
    linkSync(own, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(own, { force: true });
  }
  const holder = holderOf(path);
  if (holder === process.pid) return true;
  if (holder === undefined || alive(holder)) return false;
  // The holder is gone: take the stale lock over (another claimant may win the race; then retry).
  rmSync(path, { force: true });
  return false;
}

/** The pid in the lock, or undefined when it was released meanwhile. */
function holderOf(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8'));
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
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
