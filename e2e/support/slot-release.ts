// Setup file of every e2e test file: when the file's own afterAll hooks are done (this one was
// registered first, so it runs last), the components it left running are killed and its control
// plane goes back to the pool for the next file.
import { afterAll } from 'vitest';
import { releaseSlot } from '../../harness/e2e-slots.js';
import { killRunning } from './landlord.js';

afterAll(async () => {
  await killRunning();
  releaseSlot();
});
