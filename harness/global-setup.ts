// Vitest global setup for the e2e project: one real control plane + moto for the whole run,
// its environment handed to every test file through provide/inject.
import type { TestProject } from 'vitest/node';
import { Cluster } from './cluster.js';
import { startControlServer } from './control.js';

declare module 'vitest' {
  export interface ProvidedContext {
    e2eEnv: Record<string, string>;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const cluster = await Cluster.start({
    dynamodb: 'moto',
    installTenantCrd: true,
    log: (line) => console.log(line),
  });
  const control = await startControlServer(cluster);
  console.log(
    `e2e: control plane and moto up in ${((Date.now() - started) / 1000).toFixed(1)}s (${cluster.runDir})`,
  );
  project.provide('e2eEnv', { ...cluster.env, LANDLORD_E2E_CONTROL: control.url });
  return async () => {
    await control.close();
    await cluster.stop();
  };
}
