import { defineConfig } from 'vitest/config';
import { e2eWorkers } from './harness/e2e-workers.js';

// One runner, two projects: pure-logic unit tests first, then the end-to-end tests, several files
// at once, each against the real control plane + DynamoDB of its worker (harness/global-setup.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          // The property tests run thousands of cases (3-4 s for the largest on an idle core), and
          // npm test runs this project beside the e2e suite on two cores: vitest's 5 s default is
          // too close for a busy machine. The limit only catches a hang; no test asserts on time.
          testTimeout: 30_000,
          include: [
            'api/**/*.test.ts',
            'runtime/**/*.test.ts',
            'util/**/*.test.ts',
            'operator/**/*.test.ts',
            'sync/**/*.test.ts',
            'purger/**/*.test.ts',
            'cli/**/*.test.ts',
            'harness/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts', 'bench/**/*.test.ts'],
          globalSetup: ['harness/global-setup.ts'],
          setupFiles: ['e2e/support/slot-release.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // The files mostly wait (on the API server, on resync timers), so they run side by side,
          // each against a control plane it claims; LANDLORD_E2E_WORKERS sets how many.
          maxWorkers: e2eWorkers(),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
