// The operator killed with SIGKILL at random moments while hundreds of Tenants roll out, are edited
// and deleted, and restarted each time: in the end every Tenant is Ready with exactly its children,
// nothing is orphaned or duplicated, and nothing that was still wanted was ever deleted.
// npm test runs 200 Tenants × 8 kills; LANDLORD_SOAK=1 runs 500 × 20. LANDLORD_E2E_SEED repeats a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lostSince, snapshot, tenantKey, waitConverged, type Snapshot } from './support/converged.js';
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

const TENANTS = SOAK ? 500 : 200;
const KILLS = SOAK ? 20 : 8;
const EDITED = Math.floor(TENANTS / 5);
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

/** Creates the Tenants in waves, then edits some and deletes a few, while the kills go on. */
async function workload(all: readonly string[]): Promise<void> {
  const wave = Math.ceil(all.length / 10);
  for (let start = 0; start < all.length; start += wave) {
    await createSuiteTenants(suite, all.slice(start, start + wave));
    await sleep(1_000);
  }
  await setImage(suite, all.slice(0, EDITED), 'nginx:1.28');
  await deleteSuiteTenants(all.slice(-DELETED));
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
  it(`${TENANTS} Tenants converge through ${KILLS} kills and restarts${SOAK ? ' (soak)' : ' (LANDLORD_SOAK=1: 500 × 20)'}`, async () => {
    const all = names(suite.id, TENANTS);
    const deleted = new Set(all.slice(-DELETED));
    const scope = expectation(suite, all.slice(0, -DELETED));
    const seen: Snapshot = { uids: new Map() };
    const load = workload(all);
    let loadDone = false;
    void load.then(() => (loadDone = true));
    for (let kill = 1; kill <= KILLS; kill++) {
      const operator = startOperator();
      // Anywhere from start-up (caches still listing) to the middle of a reconcile burst.
      const delayMs = Math.round(300 + random() * 4_700);
      await sleep(delayMs);
      operator.kill('SIGKILL');
      expect(await operator.exited).toBe('SIGKILL');
      merge(seen, await snapshot(scope));
      console.log(`faults-operator: kill ${kill}/${KILLS} after ${delayMs} ms; workload done: ${loadDone}`);
    }
    await load;
    const final = startOperator();
    const tookMs = await waitConverged(scope, SOAK ? 900_000 : 300_000);
    console.log(`faults-operator: converged ${(tookMs / 1000).toFixed(1)} s after the last restart`);
    // Wanted objects were never deleted or replaced; only the deleted Tenants' ones went.
    const isDeleted = (key: string): boolean =>
      [...deleted].some((name) => key === tenantKey(name) || key.includes(`/${name}-`));
    expect(await lostSince(seen, scope, isDeleted)).toEqual([]);
    expect(final.logs.filter((l) => l.msg === 'reconcile failed')).toEqual([]);
    const exited = await Promise.race([final.exited, sleep(100).then(() => 'running')]);
    expect(exited).toBe('running');
  });
});
