#!/usr/bin/env node
// Prints the CI line `N passed, M failed` from vitest's JSON report (CI does not read vitest's own summary).
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (e) {
  console.error(`test-summary: cannot read ${file}: ${e.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
// A test file that fails to load has no failed test of its own: count it as one failure.
const brokenFiles = (report.testResults ?? []).filter(
  (s) => s.status === 'failed' && !(s.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = report.numFailedTests + brokenFiles;
console.log(`${report.numPassedTests} passed, ${failed} failed`);
process.exitCode = failed > 0 || report.numPassedTests === 0 ? 1 : 0;
