import type { KindDef } from '../../engine/kind.js';
import { unusedDisableDirective } from '../../rules/directives/unused-disable-directive.js';
import { FILE_RULES } from '../../rules/file/index.js';
import { baseName } from '../../model/paths.js';
import { parseFramework } from './parse.js';
import type { FrameworkDoc, FrameworkFacts, FrameworkParse } from './parse.js';
import { fileEmpty } from './rules/file-empty.js';
import { frameworkHeading } from './rules/framework-heading.js';

/** docs/formats.md, "Framework docs": `frameworks/<Name>.md`, a markdown document that starts with a `# ` heading. */
export const frameworkKind: KindDef<FrameworkParse, FrameworkFacts, FrameworkDoc> = {
  name: 'framework',
  label: 'framework doc',
  include: ['frameworks/*.md'],
  directives: 'markdown',
  variants: false,
  maxBytes: 2 * 1024 * 1024,
  ruleFiles: {},
  fileName: { pattern: '^[A-Za-z0-9]+$', expected: 'letters and digits with `.md`, such as `POWER.md`' },
  fallbackId: baseName,
  parse: (file) => parseFramework(file),
  rules: [...FILE_RULES, unusedDisableDirective, fileEmpty, frameworkHeading],
  id: (p) => p.name,
  facts: () => ({ kind: 'framework' }),
  emptyFacts: () => ({ kind: 'framework' }),
  doc: (p, file) => ({ kind: 'framework', name: p.name, size: file.size, content: file.text }),
  // list_frameworks.
  row: (d) => ({ name: d.name, size: d.size }),
  crossFile: [],
  codec: { encode: () => 0, decode: (row) => (row === 0 ? { kind: 'framework' } : null) },
};
