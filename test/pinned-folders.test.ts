/**
 * Reads through pinned folders (src/io/safe-fs.ts `PinnedFolders`): the same answers as `readInside`,
 * and a folder swapped for a link after it was pinned is never read through.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PinnedFolders, readInside } from '../src/io/safe-fs.js';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'docgate-pinned-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const root = join(tmp, 'root');
const outside = join(tmp, 'outside');
mkdirSync(join(root, 'docs'), { recursive: true });
mkdirSync(outside);
writeFileSync(join(root, 'docs', 'a.md'), 'inside a\n');
writeFileSync(join(root, 'docs', 'b.md'), 'inside b\n');
writeFileSync(join(outside, 'a.md'), 'OUTSIDE a\n');
writeFileSync(join(outside, 'secret.md'), 'OUTSIDE secret\n');
symlinkSync(join(outside, 'secret.md'), join(root, 'docs', 'link-out.md'));
symlinkSync(join(root, 'docs', 'b.md'), join(root, 'docs', 'link-in.md'));
symlinkSync(outside, join(root, 'out-folder'));
execFileSync('mkfifo', [join(root, 'docs', 'pipe.md')]);
mkdirSync(join(root, 'docs', 'folder.md'));

/** The answer without its stats (they differ only by the handle they were read from). */
function shape(r: ReturnType<typeof readInside>): unknown {
  return r.kind === 'bytes' ? { kind: 'bytes', text: r.bytes.toString('utf8') } : r.kind === 'too-large' ? { kind: r.kind, size: r.size } : { kind: r.kind };
}

describe('PinnedFolders', () => {
  it('answers every kind of entry as readInside does', () => {
    const pins = new PinnedFolders(root);
    try {
      const cases: [string, unknown][] = [
        ['docs/a.md', { kind: 'bytes', text: 'inside a\n' }],
        ['docs/link-in.md', { kind: 'bytes', text: 'inside b\n' }],
        ['docs/link-out.md', { kind: 'outside' }],
        ['docs/missing.md', { kind: 'gone' }],
        ['docs/pipe.md', { kind: 'not-a-file' }],
        ['docs/folder.md', { kind: 'directory' }],
        ['out-folder/a.md', { kind: 'outside' }],
        ['nowhere/a.md', { kind: 'gone' }],
      ];
      for (const [rel, expected] of cases) {
        const abs = join(root, rel);
        expect(shape(pins.read(abs, 1024)), rel).toEqual(expected);
        expect(shape(readInside(abs, root, 1024)), rel).toEqual(expected);
      }
      expect(shape(pins.read(join(root, 'docs', 'a.md'), 4))).toEqual({ kind: 'too-large', size: 9 });
    } finally {
      pins.close();
    }
  });

  it('reads from the folder it pinned, never through a link swapped in for it since', () => {
    const pins = new PinnedFolders(root);
    try {
      // A folder is pinned at its second read.
      expect(shape(pins.read(join(root, 'docs', 'a.md'), 1024))).toEqual({ kind: 'bytes', text: 'inside a\n' });
      expect(shape(pins.read(join(root, 'docs', 'b.md'), 1024))).toEqual({ kind: 'bytes', text: 'inside b\n' });
      // The folder is moved away and a link to the folder outside put in its place.
      renameSync(join(root, 'docs'), join(root, 'docs-moved'));
      symlinkSync(outside, join(root, 'docs'));
      const again = pins.read(join(root, 'docs', 'a.md'), 1024);
      expect(shape(again)).toEqual({ kind: 'bytes', text: 'inside a\n' });
      // Without the pinned handle the link is seen, and nothing outside is read.
      expect(shape(readInside(join(root, 'docs', 'a.md'), root, 1024))).toEqual({ kind: 'outside' });
    } finally {
      pins.close();
      rmSync(join(root, 'docs'));
      renameSync(join(root, 'docs-moved'), join(root, 'docs'));
    }
    // A new batch pins the folder as it is now.
    const next = new PinnedFolders(root);
    try {
      expect(shape(next.read(join(root, 'docs', 'b.md'), 1024))).toEqual({ kind: 'bytes', text: 'inside b\n' });
    } finally {
      next.close();
    }
  });
});
