import { configDefaults, defineConfig } from 'vitest/config';

// The JSON report is what .ci/run turns into its "N passed, M failed" line. Tests that take over a
// minute (test/slow/: packing and installing docgate) run apart, through vitest.slow.config.ts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/slow/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
