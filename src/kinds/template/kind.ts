import type { Located } from '../../model/analysis.js';
import type { KindDef } from '../../engine/kind.js';
import { locatedOf, locatedRow } from '../../engine/facts-codec.js';
import { unusedDisableDirective } from '../../rules/directives/unused-disable-directive.js';
import { FILE_RULES } from '../../rules/file/index.js';
import { duplicateKey } from '../../rules/frontmatter/index.js';
import { SCHEMA_RULES } from '../../rules/schema/index.js';
import { stem } from '../../model/paths.js';
import { parseTemplate } from './parse.js';
import type { TemplateDoc, TemplateFacts, TemplateParse } from './parse.js';
import { templateDuplicateStoreAs } from './rules/template-duplicate-store-as.js';
import { templateExamplesBullet } from './rules/template-examples-bullet.js';
import { templateFieldOrder } from './rules/template-field-order.js';
import { templatePlaceholderCycle } from './rules/template-placeholder-cycle.js';
import { templatePlaceholder } from './rules/template-placeholder.js';
import { templateStrayText } from './rules/template-stray-text.js';

/** docs/formats.md, "POWER templates": `templates/power/<name>.txt`, POWER fields in the line format, under 50 KB. */
export const templateKind: KindDef<TemplateParse, TemplateFacts, TemplateDoc> = {
  name: 'template',
  label: 'POWER template',
  include: ['templates/power/*.txt'],
  directives: 'template',
  variants: false,
  maxBytes: 50 * 1024 - 1,
  ruleFiles: { schema: 'power-template.schema.json' },
  fileName: { pattern: '^[a-z0-9]+$', expected: 'lowercase letters and digits only, such as `readme.txt`' },
  fallbackId: stem,
  parse: (file, data) => parseTemplate(file, data),
  rules: [...FILE_RULES, unusedDisableDirective, templateStrayText, duplicateKey, templateFieldOrder, templateExamplesBullet, ...SCHEMA_RULES],
  id: (p) => p.name,
  facts: (p) => ({ kind: 'template', storeAs: p.storeAs, placeholders: p.placeholders }),
  emptyFacts: () => ({ kind: 'template', storeAs: null, placeholders: [] }),
  doc: (p, file) => ({ kind: 'template', name: p.name, fields: p.data, content: file.text }),
  // list_templates.
  row: (d) => ({ name: d.name, save_as: d.fields.save_as ?? '', store_as: d.fields.store_as ?? '' }),
  crossFile: [templateDuplicateStoreAs, templatePlaceholder, templatePlaceholderCycle],
  codec: {
    encode: (f) => [locatedRow(f.storeAs), f.placeholders.map(locatedRow)],
    decode: (row) => {
      if (!Array.isArray(row) || row.length !== 2 || !Array.isArray(row[1])) return null;
      const storeAs = locatedOf(row[0]);
      const placeholders = (row[1] as unknown[]).map(locatedOf);
      if (storeAs === undefined || placeholders.some((p) => p === undefined || p === null)) return null;
      return { kind: 'template', storeAs, placeholders: placeholders as Located<string>[] };
    },
  },
};
