// Fault injection through the harness's control endpoint.
import { envValue } from './env.js';

async function post(path: string): Promise<void> {
  const res = await fetch(`${envValue('LANDLORD_E2E_CONTROL')}${path}`, { method: 'POST' });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

export const faults = {
  restartApiServer: (downMs = 0) => post(`/apiserver/restart?downMs=${downMs}`),
  pauseEtcd: () => post('/etcd/pause'),
  resumeEtcd: () => post('/etcd/resume'),
  pauseDynamo: () => post('/dynamodb/pause'),
  resumeDynamo: () => post('/dynamodb/resume'),
};
