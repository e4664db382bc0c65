import { describe, expect, it } from 'vitest';
import type { SysrsDoc } from '../src/model/analysis.js';
import { Repository } from '../src/lint/repository.js';
import { REPO, fixture, lintRoot } from './helpers.js';

/** The shape of a body: every key path, and the ids of every list item, in order. */
function shape(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => shape(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === 'id' || k === 'tag') out.push(`${path}.${k}=${String(v)}`);
    else if (k !== 'text' && k !== 'title' && k !== 'notes' && k !== 'line') out.push(`${path}.${k}`, ...shape(v, `${path}.${k}`));
  }
  return out;
}

describe('SysRS language variants', () => {
  it('parse the bundled German variant to the same canonical keys and item ids as its English source', () => {
    const repo = new Repository(REPO);
    const entries = repo.entries('sysrs');
    const variants = entries.filter((e) => e.ref.lang === 'de');
    expect(variants.length).toBeGreaterThanOrEqual(1);
    for (const v of variants) {
      const source = entries.find((e) => e.ref.path === `docs/sysrs/${v.ref.path.split('/').pop()}`);
      expect(v.failure).toBeNull();
      expect(source?.failure).toBeNull();
      const de = repo.document(v) as SysrsDoc;
      const en = repo.document(source!) as SysrsDoc;
      expect(de.id).toBe(en.id);
      expect(de.title.startsWith('Systemanforderungsspezifikation: ')).toBe(true);
      const deShape = shape(de.body);
      expect(deShape).toEqual(shape(en.body));
      expect(deShape.filter((s) => s.endsWith('.id=') || /\.id=[0-9a-f-]{36}$/.test(s)).length).toBeGreaterThan(5);
      expect(Object.keys(de.body as object)).toContain('system_purpose');
    }
  });

  it('passes a variant whose headings come from the heading table', () => {
    const run = lintRoot(fixture('variants', 'valid'));
    expect(run.filesChecked).toBe(2);
    expect(run.results).toEqual([]);
  });

  it('fails a variant with another id than its source', () => {
    const [r] = lintRoot(fixture('variants', 'other-id')).results;
    expect(r!.path).toBe('docs/sysrs/de/fixture.md');
    expect(r!.diagnostics).toEqual([
      {
        line: 2,
        column: 5,
        rule: 'sysrs-variant-id',
        message: 'Unexpected id `0e1d2c3b-4a59-4867-9a8b-7c6d5e4f3a2b`, expected the id of docs/sysrs/fixture.md `7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c`',
      },
    ]);
  });

  it('fails a variant without an English source', () => {
    const [r] = lintRoot(fixture('variants', 'no-source')).results;
    expect(r!.diagnostics).toEqual([
      { line: 1, column: 1, rule: 'sysrs-variant-source', message: 'Unexpected language variant without an English source, expected docs/sysrs/fixture.md' },
    ]);
  });

  it('fails a language folder without a heading table, naming the languages that have one', () => {
    const [r] = lintRoot(fixture('variants', 'no-table')).results;
    expect(r!.path).toBe('docs/sysrs/fr/fixture.md');
    expect(r!.diagnostics).toEqual([
      {
        line: 1,
        column: 1,
        rule: 'sysrs-language',
        message: 'Unexpected language `fr` without a heading table, expected a language with a heading table: `de`',
      },
    ]);
  });
});
