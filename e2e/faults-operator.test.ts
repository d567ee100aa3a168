// The operator killed with SIGKILL at random moments while hundreds of Tenants roll out, are edited
// and deleted, and restarted each time: in the end every Tenant is Ready with exactly its children,
// nothing is orphaned or duplicated, and nothing that was still wanted was ever deleted.
// npm test runs 500 Tenants × 20 kills; LANDLORD_SOAK=1 runs 1,000 × 40. LANDLORD_E2E_SEED repeats a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyCount, waitConverged } from './support/converged.js';
import { lostSince, ofTenants, snapshot, type Snapshot } from './support/snapshot.js';
import { componentEnv, startLandlord, type LandlordProcess } from './support/landlord.js';
import {
  createSuite,
  createSuiteTenants,
  deleteSuiteTenants,
  expectation,
  names,
  removeSuite,
  seed,
  seededRandom,
  setImage,
  sleep,
  SOAK,
  type Suite,
} from './support/suite.js';

const TENANTS = SOAK ? 1_000 : 500;
const KILLS = SOAK ? 40 : 20;
const DELETED = 10;
const SEED = seed();
const random = seededRandom(SEED);

let suite: Suite;
const processes: LandlordProcess[] = [];

function startOperator(): LandlordProcess {
  const operator = startLandlord('operator', componentEnv({ LANDLORD_LOG_LEVEL: 'info' }));
  processes.push(operator);
  return operator;
}

/**
 * The work of step `k` of `steps`, started as the operator starts so that each kill lands in the
 * middle of it: a wave of new Tenants, a new generation for a fifth of the previous wave, and in
 * the last step the deletion of a few Tenants of the first wave.
 */
async function step(all: readonly string[], k: number, steps: number): Promise<void> {
  const wave = Math.ceil(all.length / steps);
  const previous = all.slice((k - 2) * wave, (k - 1) * wave);
  await Promise.all([
    createSuiteTenants(suite, all.slice((k - 1) * wave, k * wave)),
    k > 1 ? setImage(suite, previous.slice(0, Math.ceil(wave / 5)), 'nginx:1.28') : undefined,
    k === steps ? deleteSuiteTenants(all.slice(0, DELETED)) : undefined,
  ]);
}

/** Every key seen in any snapshot, with the uid it was first seen with. */
function merge(into: Snapshot, next: Snapshot): void {
  for (const [key, uid] of next.uids) if (!into.uids.has(key)) into.uids.set(key, uid);
}

beforeAll(async () => {
  suite = await createSuite('kill');
  console.log(`faults-operator: seed ${SEED} (LANDLORD_E2E_SEED=${SEED} repeats this run)`);
});

afterAll(async () => {
  for (const p of processes) p.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  await removeSuite(suite);
});

describe('SIGKILL of the operator mid-rollout', () => {
  it(`${TENANTS} Tenants converge through ${KILLS} kills and restarts${SOAK ? ' (soak)' : ''}`, async () => {
    const all = names(suite.id, TENANTS);
    const deleted = new Set(all.slice(0, DELETED));
    const scope = expectation(suite, all.slice(DELETED));
    const seen: Snapshot = { uids: new Map() };
    for (let kill = 1; kill <= KILLS; kill++) {
      const operator = startOperator();
      const work = step(all, kill, KILLS);
      // Anywhere from start-up (caches still listing) to the middle of a reconcile burst.
      const delayMs = Math.round(300 + random() * 4_700);
      await sleep(delayMs);
      operator.kill('SIGKILL');
      expect(await operator.exited).toBe('SIGKILL');
      await work;
      merge(seen, await snapshot(scope));
      const ready = await readyCount(scope);
      console.log(`faults-operator: kill ${kill}/${KILLS} after ${delayMs} ms; ${ready} Tenants Ready then`);
    }
    const final = startOperator();
    const tookMs = await waitConverged(scope, SOAK ? 900_000 : 300_000);
    console.log(`faults-operator: converged ${(tookMs / 1000).toFixed(1)} s after the last restart`);
    // Wanted objects were never deleted or replaced; only the deleted Tenants' ones went.
    expect(await lostSince(seen, scope, ofTenants(deleted))).toEqual([]);
    expect(final.logs.filter((l) => l.msg === 'reconcile failed')).toEqual([]);
    const exited = await Promise.race([final.exited, sleep(100).then(() => 'running')]);
    expect(exited).toBe('running');
  });
});
