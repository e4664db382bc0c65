import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rulesOf } from '../src/kinds/index.js';
import { stylish } from '../src/report/stylish.js';
import { fixture, lintRoot } from './helpers.js';

const roots = readdirSync(fixture('rules')).map((name) => fixture('rules', name));

describe('the error text (SPEC §3)', () => {
  it('equals the diagnostics rendered `<line>:<column> <message> [<rule>]`, joined by \\n, sorted by position', () => {
    let seen = 0;
    for (const root of roots) {
      for (const r of lintRoot(root).results) {
        const rendered = r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message} [${d.rule}]`).join('\n');
        expect(r.error).toBe(rendered);
        const positions = r.diagnostics.map((d) => d.line * 1e6 + d.column);
        expect(positions).toEqual([...positions].sort((a, b) => a - b));
        // SPEC §11: a `fix` besides, only on a finding of a fixable rule.
        for (const d of r.diagnostics)
          expect(
            Object.keys(d)
              .filter((k) => k !== 'fix')
              .sort(),
          ).toEqual(['column', 'line', 'message', 'rule']);
        for (const d of r.diagnostics) if (d.fix) expect(rulesOf().get(d.rule)?.rule.fixable, d.rule).toBe(true);
        seen++;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(30);
  });

  it('appears line for line, indented, in the stylish output', () => {
    for (const root of roots) {
      const run = lintRoot(root);
      const text = stylish(run);
      for (const r of run.results) {
        const block = [r.path, ...r.error.split('\n').map((l) => `  ${l}`)].join('\n');
        expect(text).toContain(block);
      }
    }
  });
});
