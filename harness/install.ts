// `npm run e2e:install`: builds the pinned control plane and installs moto ahead of time, so the
// first test run (or CI) shows that progress as its own step.
import { ensureBinaries } from './binaries.js';
import { ensureMoto } from './moto.js';

const started = Date.now();
const [binaries] = await Promise.all([ensureBinaries(), ensureMoto()]);
console.log(`control plane binaries: ${binaries['kube-apiserver'].replace(/\/kube-apiserver$/, '')}`);
console.log(`e2e dependencies ready in ${((Date.now() - started) / 1000).toFixed(0)}s`);
