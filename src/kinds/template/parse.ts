import type { Located } from '../../model/analysis.js';
import { checkSchema } from '../../parse/frontmatter-doc.js';
import type { SchemaCheck } from '../../parse/frontmatter-doc.js';
import { FILE_START } from '../../model/position.js';
import type { Locator } from '../../model/position.js';
import type { FileText, KindData, Layers } from '../../engine/kind.js';
import { stem } from '../../model/paths.js';
import { fieldValue, parseFields } from '../../parse/fields.js';
import type { FieldsParse } from '../../parse/fields.js';
import { record } from '../../model/records.js';

/** `{{readme_summary}}`: a reference to the `store_as` of another template. */
const PLACEHOLDER = /\{\{([A-Za-z0-9_]+_summary)\}\}/g;

export interface TemplateParse extends Layers {
  fields: FieldsParse;
  schema: SchemaCheck | null;
  name: string;
  /** Field order wanted: the order of the schema's `properties`. */
  order: string[];
  /** Field values by key (first occurrence). */
  data: Record<string, string>;
  storeAs: Located<string> | null;
  placeholders: Located<string>[];
  /** The file's text (the field-order fix moves its lines). */
  text: string;
}

export interface TemplateFacts {
  kind: 'template';
  storeAs: Located<string> | null;
  placeholders: Located<string>[];
}

/** What MCP clients get of a template that parses. */
export interface TemplateDoc {
  kind: 'template';
  name: string;
  fields: Record<string, string>;
  content: string;
}

export function parseTemplate(file: FileText, data: KindData): TemplateParse {
  const fields = parseFields(file.text);
  const values = record<string>();
  for (const f of fields.byKey.values()) values[f.key] = fieldValue(f);
  const locator: Locator = {
    value: (path) => {
      const f = path[0] === undefined ? undefined : fields.byKey.get(path[0]);
      return f ? (f.lines[0] ? { line: f.lines[0].line, column: f.lines[0].column } : f.keyPos) : FILE_START;
    },
    key: (path) => (path[0] !== undefined && fields.byKey.get(path[0])?.keyPos) || FILE_START,
  };
  const schema = data.schema!;
  const placeholders: Located<string>[] = [];
  for (const f of fields.byKey.values()) {
    for (const l of f.lines) {
      for (const m of l.text.matchAll(PLACEHOLDER)) placeholders.push({ value: m[1]!, line: l.line, column: l.column + m.index });
    }
  }
  const storeAs = fields.byKey.has('store_as') && values.store_as ? { value: values.store_as, ...locator.value(['store_as']) } : null;
  return {
    fields,
    schema: checkSchema(schema, values, locator, file.text),
    text: file.text,
    name: stem(file.path),
    order: Object.keys(schema.properties),
    data: values,
    storeAs,
    placeholders,
  };
}
