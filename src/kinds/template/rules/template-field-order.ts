import { defineRule } from '../../../engine/rule.js';
import type { Fix } from '../../../engine/rule.js';
import type { TemplateParse } from '../parse.js';

const COMMENT = /^[ \t]*#/;

/**
 * The fix: the fields in the schema's order, each moved with its continuation lines and the comment
 * lines right above it; lines before the first field stay. Null when a key is unknown or repeated (its
 * place cannot be known: the rules about those speak first).
 */
function inOrder(p: TemplateParse): Fix | null {
  if (p.fields.duplicates.length > 0 || p.fields.fields.some((f) => !p.order.includes(f.key))) return null;
  const lines = p.text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const end = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  // Each field starts at its key line, or at the comments directly above it.
  const starts = p.fields.fields.map((f) => {
    let i = f.keyPos.line - 1;
    while (i > 0 && COMMENT.test(lines[i - 1]!)) i--;
    return i;
  });
  const parts = p.fields.fields.map((f, k) => ({ at: p.order.indexOf(f.key), from: starts[k]!, to: starts[k + 1] ?? end }));
  const sorted = [...parts].sort((a, b) => a.at - b.at);
  // Only the run of fields that moves is replaced: the fields before and after it stay as written.
  let first = 0;
  while (first < parts.length && sorted[first] === parts[first]) first++;
  if (first === parts.length) return null;
  let last = parts.length - 1;
  while (sorted[last] === parts[last]) last--;
  // Parts are whole lines joined by LF: a last field moved up gets a line break, the file's last one stays.
  const text = sorted
    .slice(first, last + 1)
    .flatMap((x) => lines.slice(x.from, x.to))
    .join('\n');
  const endLine = parts[last]!.to - 1;
  return { line: parts[first]!.from + 1, column: 1, endLine: endLine + 1, endColumn: lines[endLine]!.length + 1, text };
}

export const templateFieldOrder = defineRule<TemplateParse>({
  id: 'template-field-order',
  description: 'Template fields must appear in the order of the schema',
  fixable: true,
  examples: {
    ok: [{ path: 'templates/power/readme.txt', text: 'framework: POWER\npurpose: Generate README.md.\noutput: README.md with a header.\n' }],
    notOk: [
      {
        path: 'templates/power/readme.txt',
        text: 'framework: POWER\noutput: README.md with a header.\npurpose: Generate README.md.\n',
        expected: [
          '3:1 Unexpected field `purpose` after `output`, expected the order framework, purpose, output, work, examples, requirements, save_as, store_as',
        ],
        output: 'framework: POWER\npurpose: Generate README.md.\noutput: README.md with a header.\n',
      },
    ],
  },
  document(p, report) {
    // The order of the schema's `properties` is the order of the fields (JSON keeps key order).
    let highest = -1;
    let highestKey = '';
    let fix: Fix | null | undefined;
    for (const f of p.fields.byKey.values()) {
      const idx = p.order.indexOf(f.key);
      if (idx === -1) continue;
      if (idx < highest) {
        if (fix === undefined) fix = inOrder(p);
        report(f.keyPos, `field \`${f.key}\` after \`${highestKey}\``, `the order ${p.order.join(', ')}`, fix ? { fix } : undefined);
      } else {
        highest = idx;
        highestKey = f.key;
      }
    }
  },
});
