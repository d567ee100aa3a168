import { defineConfig } from 'vitest/config';

// One runner, two projects: pure-logic unit tests, and end-to-end tests that share one real
// control plane + DynamoDB started by the e2e global setup.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
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
          ],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts', 'bench/**/*.test.ts'],
          globalSetup: ['harness/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // The control plane and the machine's two cores are shared: run files one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
