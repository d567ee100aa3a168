#!/usr/bin/env node
// The `landlord` bin: checks the Node.js release first, then loads the CLI. Only a dynamic import
// can come after the check; a static one would load the dependencies before it runs.
import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.version);
if (problem === undefined) {
  await import('./main.js');
} else {
  process.stderr.write(`landlord: ${problem}\n`);
  process.exitCode = 2;
}
