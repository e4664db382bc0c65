import { describe, expect, it } from 'vitest';
import { compileGlob } from '../src/mcp/text.js';

const ID = '3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f';

describe('list_sysrs glob matching', () => {
  it.each([
    ['*', true],
    ['3F2B*', true],
    ['3f2b8c1e-????-*', true],
    ['*6f', true],
    ['*6e', false],
    ['[0-9]f2b*', true],
    ['[!0-9]f2b*', false],
    ['3[A-F]2b*', true],
    ['**', true],
    ['?', false],
    [ID, true],
    [ID.slice(0, -1), false],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b', false],
  ])('%s matches %s', (glob, expected) => {
    expect(compileGlob(glob)(ID)).toBe(expected);
  });

  it('stays linear on patterns that make a RegExp backtrack exponentially (over 10,000 ids)', () => {
    // As a RegExp this pattern took over a second per id: 10,000 ids would not finish within the test timeout.
    const match = compileGlob(`${'*a'.repeat(20)}*b`);
    let hits = 0;
    for (let i = 0; i < 10_000; i++) if (match(`aaaaaaaa-aaaa-4aaa-aaaa-${String(i).padStart(12, 'a')}`)) hits++;
    expect(hits).toBe(0);
    expect(compileGlob(`${'*a'.repeat(20)}*`)('a'.repeat(36))).toBe(true);
  });

  it('rejects an inverted class range', () => {
    expect(() => compileGlob('[z-a]*')).toThrow(/invalid range z-a/);
  });
});
