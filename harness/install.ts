// `npm run e2e:install`: builds the pinned control plane, helm (4 and 3), promtool and External Secrets
// Operator and installs moto ahead
// of time, so the first test run (or CI) shows that progress as its own step.
import { ensureBinaries } from './binaries.js';
import { ensureMoto } from './moto.js';
import { ensureExternalSecrets, ensureHelm, ensureHelm3, ensurePromtool } from './tools.js';

const started = Date.now();
// The tools after the control plane rather than beside it, and one after the other: two Go builds
// at once would share two cores.
const [binaries] = await Promise.all([ensureBinaries(), ensureMoto()]);
const helm = await ensureHelm();
const helm3 = await ensureHelm3();
const promtool = await ensurePromtool();
const externalSecrets = await ensureExternalSecrets();
console.log(`control plane binaries: ${binaries['kube-apiserver'].replace(/\/kube-apiserver$/, '')}`);
console.log(`helm: ${helm}`);
console.log(`helm 3: ${helm3}`);
console.log(`promtool: ${promtool}`);
console.log(`external-secrets: ${externalSecrets}`);
console.log(`e2e dependencies ready in ${((Date.now() - started) / 1000).toFixed(0)}s`);
