// Vitest global setup for the e2e project: one real control plane + moto per e2e worker, their
// environments handed to every test file through provide/inject. A file claims a control plane no
// running file holds (harness/e2e-slots.ts), so files running at once never share one.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBinaries } from './binaries.js';
import { Cluster } from './cluster.js';
import { startControlServer, type ControlServer } from './control.js';
import { e2eWorkers } from './e2e-workers.js';
import { ensureMoto } from './moto.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One per control plane; a file uses the one whose slot it claims (e2e-slots.ts). */
    e2eEnvs: Record<string, string>[];
    /** Where the slots' lock files live. */
    e2eSlotDir: string;
  }
}

interface Started {
  cluster: Cluster;
  control: ControlServer;
}

async function startOne(slot: number): Promise<Started> {
  const cluster = await Cluster.start({
    dynamodb: 'moto',
    installTenantCrd: true,
    databases: true,
    log: (line) => console.log(`[e2e ${slot}] ${line}`),
  });
  return { cluster, control: await startControlServer(cluster) };
}

/** No more control planes than files to run: one file run from the command line needs one. */
async function planesNeeded(project: TestProject): Promise<number> {
  // filenamePattern holds the command line's file filters; vitest marks it internal, so it is read
  // through a narrow type rather than relied on to exist.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern ?? [];
  const { testFiles } = await project.globTestFiles(filters);
  return Math.max(1, Math.min(e2eWorkers(), testFiles.length));
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const begun = Date.now();
  const count = await planesNeeded(project);
  // Built or installed once, before the clusters start side by side and find them cached.
  await Promise.all([ensureBinaries(console.log), ensureMoto(console.log)]);
  const settled = await Promise.allSettled(Array.from({ length: count }, (_, i) => startOne(i + 1)));
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.all(
      started.map(async ({ cluster, control }) => {
        await control.close();
        await cluster.stop();
      }),
    );
  };
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await stopAll();
    throw failed.reason;
  }
  const seconds = ((Date.now() - begun) / 1000).toFixed(1);
  console.log(
    `e2e: ${count} control plane(s) and moto up in ${seconds}s (${started.map((s) => s.cluster.runDir).join(', ')})`,
  );
  project.provide('e2eSlotDir', await mkdtemp(join(tmpdir(), 'landlord-e2e-slots-')));
  project.provide(
    'e2eEnvs',
    started.map(({ cluster, control }) => ({ ...cluster.env, LANDLORD_E2E_CONTROL: control.url })),
  );
  return stopAll;
}
