import { defineConfig } from 'vitest/config';

// The JSON report is what .ci/run turns into its "N passed, M failed" line.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
