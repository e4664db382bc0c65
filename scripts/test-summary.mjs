#!/usr/bin/env node
// Prints the CI line `N passed, M failed` from vitest's JSON reports, summed over every report named
// (CI does not read vitest's own summary). A report that cannot be read counts as one failure.
import { readFileSync } from 'node:fs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['test-results/vitest.json'];
let passed = 0;
let failed = 0;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`test-summary: cannot read ${file}: ${e.message}`);
    failed += 1;
    continue;
  }
  // A test file that fails to load has no failed test of its own: count it as one failure.
  const brokenFiles = (report.testResults ?? []).filter((s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  passed += report.numPassedTests;
  failed += report.numFailedTests + brokenFiles;
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
