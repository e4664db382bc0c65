import type { KindDef } from '../../engine/kind.js';
import { locatedOf, locatedRow } from '../../engine/facts-codec.js';
import { unusedDisableDirective } from '../../rules/directives/unused-disable-directive.js';
import { FILE_RULES } from '../../rules/file/index.js';
import { FRONTMATTER_RULES, duplicateKey } from '../../rules/frontmatter/index.js';
import { outlineRules } from '../../rules/outline/index.js';
import { SCHEMA_RULES } from '../../rules/schema/index.js';
import { UUID } from '../../model/uuid.js';
import { parseSysrs, sysrsDoc, sysrsFileId } from './parse.js';
import type { SysrsDoc, SysrsFacts, SysrsParse } from './parse.js';
import { sysrsDuplicateId } from './rules/sysrs-duplicate-id.js';
import { sysrsLanguage } from './rules/sysrs-language.js';
import { sysrsVariantId } from './rules/sysrs-variant-id.js';
import { sysrsVariantSource } from './rules/sysrs-variant-source.js';

/** docs/formats.md, "SysRS": `docs/sysrs/<file>.md` and variants `docs/sysrs/<lang>/<file>.md`; frontmatter and an outlined body. */
export const sysrsKind: KindDef<SysrsParse, SysrsFacts, SysrsDoc> = {
  name: 'sysrs',
  label: 'System Requirements Specification',
  include: ['docs/sysrs/*.md'],
  directives: 'markdown',
  variants: true,
  maxBytes: 2 * 1024 * 1024,
  ruleFiles: { schema: 'sysrs-frontmatter.schema.json', outline: 'sysrs-outline.json', headingTables: /^sysrs-headings\.([a-z]{2})\.json$/ },
  fileName: null,
  fallbackId: sysrsFileId,
  parse: (file, data, full) => parseSysrs(file, data, full),
  rules: [...FILE_RULES, unusedDisableDirective, sysrsLanguage, ...FRONTMATTER_RULES, duplicateKey, ...SCHEMA_RULES, ...outlineRules('sysrs', true)],
  id: (p, file) => p.id?.value ?? sysrsFileId(file.path),
  facts: (p, file) => ({ kind: 'sysrs', id: p.id, lang: file.lang }),
  factsId: (f) => f.id?.value ?? null,
  emptyFacts: (_path, lang) => ({ kind: 'sysrs', id: null, lang }),
  doc: (p, file) => sysrsDoc(p, file),
  // list_sysrs (its title is the row's title: the whole H1).
  row: (d) => ({ id: d.id, status: String(d.frontmatter.status ?? 'draft'), ref: d.ref }),
  crossFile: [sysrsDuplicateId, sysrsVariantSource, sysrsVariantId],
  codec: {
    encode: (f) => (f.lang === null ? locatedRow(f.id) : [locatedRow(f.id), f.lang]),
    decode: (row) => {
      // An English document's row is its id alone; a variant's adds its language folder.
      const variant = Array.isArray(row) && row.length === 2 && typeof row[1] === 'string';
      const id = locatedOf(variant ? (row as unknown[])[0] : row);
      // Once per cache row of a SysRS, in a run too short for the loop of model/uuid.ts to be optimized:
      // the regular expression, whose code is native from the first call (docs/performance.md, "Issue 26's rows again").
      return id === undefined || (id !== null && !UUID.test(id.value)) ? null : { kind: 'sysrs', id, lang: variant ? ((row as unknown[])[1] as string) : null };
    },
  },
};
