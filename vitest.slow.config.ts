import { defineConfig } from 'vitest/config';

// `npm run test:slow` (called by .ci/run): the tests that take over a minute, with a JSON report of their own.
export default defineConfig({
  test: {
    include: ['test/slow/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest-slow.json' }]],
  },
});
