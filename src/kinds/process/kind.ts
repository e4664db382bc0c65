import type { KindDef } from '../../engine/kind.js';
import { locatedOf, locatedRow } from '../../engine/facts-codec.js';
import { unusedDisableDirective } from '../../rules/directives/unused-disable-directive.js';
import { FILE_RULES } from '../../rules/file/index.js';
import { FRONTMATTER_RULES, duplicateKey } from '../../rules/frontmatter/index.js';
import { SCHEMA_RULES } from '../../rules/schema/index.js';
import { stem } from '../../model/paths.js';
import { parseProcess, processDoc } from './parse.js';
import type { ProcessDoc, ProcessFacts, ProcessParse } from './parse.js';
import { processDuplicateName } from './rules/process-duplicate-name.js';
import { processEmptyBody } from './rules/process-empty-body.js';

/** docs/formats.md, "Processes": `processes/<slug>.md`, optional YAML frontmatter (`name`, `description`), a body. */
export const processKind: KindDef<ProcessParse, ProcessFacts, ProcessDoc> = {
  name: 'process',
  label: 'process',
  include: ['processes/*.md'],
  directives: 'markdown',
  variants: false,
  maxBytes: 2 * 1024 * 1024,
  ruleFiles: { schema: 'process-frontmatter.schema.json' },
  fileName: null,
  fallbackId: stem,
  parse: (file, data) => parseProcess(file, data),
  rules: [...FILE_RULES, unusedDisableDirective, ...FRONTMATTER_RULES, duplicateKey, ...SCHEMA_RULES, processEmptyBody],
  id: (p) => p.slug,
  facts: (p) => ({ kind: 'process', name: p.name }),
  emptyFacts: () => ({ kind: 'process', name: null }),
  doc: (p) => processDoc(p),
  // list_processes, search_processes and get_process by name.
  row: (d) => ({ name: d.name, slug: d.slug, description: d.description }),
  crossFile: [processDuplicateName],
  codec: {
    encode: (f) => locatedRow(f.name),
    decode: (row) => {
      const name = locatedOf(row);
      return name === undefined ? null : { kind: 'process', name };
    },
  },
};
