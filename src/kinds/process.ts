import type { Analysis, FileText, Located } from '../core/analysis.js';
import { stem } from '../core/analysis.js';
import { readFrontmatterDoc } from '../core/frontmatter-doc.js';
import { FILE_START, LineIndex, diag } from '../core/position.js';
import type { RuleSet } from '../core/schemas.js';

/** `code-review` → `Code Review` (SPEC §2.3: the name of a process without one in its frontmatter). */
export function nameFromSlug(slug: string): string {
  return slug
    .split(/[-_\s]+/)
    .filter((w) => w !== '')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

export function analyzeProcess(file: FileText, rules: RuleSet): Analysis {
  const slug = stem(file.path);
  const fm = readFrontmatterDoc(file.text, rules.process);
  const diagnostics = [...fm.diagnostics];
  let name: Located<string> | null = null;
  if (fm.data) {
    const written = fm.written?.name;
    if (typeof written === 'string' && written.trim() !== '') name = { value: written, ...fm.locator.value(['name']) };
    else if (written === undefined) name = { value: nameFromSlug(slug), ...FILE_START };
  }
  if (!fm.split.unterminated && fm.split.body.trim() === '') {
    const lines = new LineIndex(file.text).lineCount;
    const line = Math.min(fm.split.bodyLineOffset + 1, lines);
    diagnostics.push(diag({ line, column: 1 }, 'process-empty-body', 'Unexpected empty body, expected markdown content after the frontmatter'));
  }
  const description = fm.data?.description;
  return {
    path: file.path,
    kind: 'process',
    id: slug,
    diagnostics,
    facts: { kind: 'process', name },
    doc:
      diagnostics.length === 0 && name
        ? {
            kind: 'process',
            name: name.value,
            slug,
            description: typeof description === 'string' ? description : '',
            content: fm.split.body.replace(/^(?:[ \t]*\r?\n)+/, ''),
          }
        : null,
  };
}
