// `npm run e2e:install`: builds the pinned control plane, helm (4 and 3), promtool and External Secrets
// Operator, installs moto, and builds the previous release for the upgrade test, ahead
// of time, so the first test run (or CI) shows that progress as its own step.
import { ensureBinaries } from './binaries.js';
import { ensureMoto } from './moto.js';
import { previousVersion } from './previous-version.js';
import { ensureExternalSecrets, ensureHelm, ensureHelm3, ensurePromtool } from './tools.js';

const started = Date.now();
// The tools after the control plane rather than beside it, and one after the other: two Go builds
// at once would share two cores.
const [binaries] = await Promise.all([ensureBinaries(), ensureMoto()]);
const helm = await ensureHelm();
const helm3 = await ensureHelm3();
const promtool = await ensurePromtool();
const externalSecrets = await ensureExternalSecrets();
// While the network is there: its npm ci may need packages the cache lacks.
const previous = await previousVersion();
console.log(`control plane binaries: ${binaries['kube-apiserver'].replace(/\/kube-apiserver$/, '')}`);
console.log(`helm: ${helm}`);
console.log(`helm 3: ${helm3}`);
console.log(`promtool: ${promtool}`);
console.log(`external-secrets: ${externalSecrets}`);
console.log(`previous release: ${previous.version}, ${previous.cli.at(-1)}`);
console.log(`e2e dependencies ready in ${((Date.now() - started) / 1000).toFixed(0)}s`);
