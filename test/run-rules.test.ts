import { describe, expect, it } from 'vitest';
import { runRules } from '../src/engine/analyze-file.js';
import type { FileStage } from '../src/parse/file-stage.js';
import type { Report, Rule } from '../src/engine/rule.js';

const stage = (path: string): FileStage => ({ path, problem: null, decoding: null, fileName: null });

/** A rule that reports once per file, at a line named by the file, and can run the rules again from its hook. */
function probe(inner: (path: string) => void): Rule<unknown> {
  return {
    id: 'probe',
    description: 'test rule',
    severity: 'error',
    fixable: false,
    fileLevel: false,
    examples: { ok: [], notOk: [] },
    file(s: FileStage, report: Report) {
      inner(s.path);
      report({ line: s.path.length, column: 1 }, `file \`${s.path}\``, 'nothing');
    },
  };
}

describe('runRules', () => {
  it('reports into the file at hand when the same rules run again from inside a hook (each run keeps its own findings)', () => {
    const innerRuns: string[][] = [];
    const rules: Rule<unknown>[] = [];
    rules.push(
      probe((path) => {
        if (path === 'outer.md') innerRuns.push(runRules(rules, stage('inner-file.md'), null).map((d) => d.message));
      }),
    );
    const outer = runRules(rules, stage('outer.md'), null);
    expect(innerRuns).toEqual([['Unexpected file `inner-file.md`, expected nothing']]);
    expect(outer).toEqual([{ line: 8, column: 1, rule: 'probe', message: 'Unexpected file `outer.md`, expected nothing' }]);
  });

  it('gives each file its own severity and findings when one rule list serves many files', () => {
    const rules = [probe(() => {})];
    const first = runRules(rules, stage('a.md'), null, () => 'warning');
    const second = runRules(rules, stage('bb.md'), null);
    const off = runRules(rules, stage('ccc.md'), null, () => 'off');
    expect(first).toEqual([{ line: 4, column: 1, rule: 'probe', message: 'Unexpected file `a.md`, expected nothing', severity: 'warning' }]);
    expect(second).toEqual([{ line: 5, column: 1, rule: 'probe', message: 'Unexpected file `bb.md`, expected nothing' }]);
    expect(off).toEqual([]);
  });
});
