import { splitFrontmatter } from './frontmatter.js';
import type { FrontmatterSplit } from './frontmatter.js';
import { append, diag, FILE_START } from './position.js';
import type { Locator } from './position.js';
import { schemaDiagnostics } from './schema-messages.js';
import { applyDefaults } from './schemas.js';
import type { CompiledSchema } from './schemas.js';
import type { Diagnostic } from './types.js';
import { parseYamlFrontmatter } from './yaml-frontmatter.js';

export interface FrontmatterDoc {
  split: FrontmatterSplit;
  /** Frontmatter data with schema defaults applied; null when it could not be read at all. */
  data: Record<string, unknown> | null;
  /** Data as written (before defaults), for facts that must know what the file says. */
  written: Record<string, unknown> | null;
  locator: Locator;
  diagnostics: Diagnostic[];
}

const NO_LOCATOR: Locator = { value: () => FILE_START, key: () => FILE_START };

/** Splits, parses and schema-checks the frontmatter of a markdown document (processes, SysRS). */
export function readFrontmatterDoc(text: string, schema: CompiledSchema): FrontmatterDoc {
  const split = splitFrontmatter(text);
  if (split.unterminated) {
    return {
      split,
      data: null,
      written: null,
      locator: NO_LOCATOR,
      diagnostics: [diag(FILE_START, 'frontmatter-unterminated', 'Unexpected frontmatter without a closing `---` line, expected `---` after the YAML')],
    };
  }
  const diagnostics: Diagnostic[] = [];
  let written: Record<string, unknown> | undefined = {};
  let locator = NO_LOCATOR;
  if (split.present) {
    const yaml = parseYamlFrontmatter(split.yaml, split.yamlStartLine);
    append(diagnostics, yaml.diagnostics);
    written = yaml.data;
    locator = yaml.locator;
  }
  if (written === undefined) return { split, data: null, written: null, locator, diagnostics };
  if (!schema.validate(written)) append(diagnostics, schemaDiagnostics(schema.validate.errors ?? [], written, locator));
  return { split, data: applyDefaults(written, schema.schema), written, locator, diagnostics };
}
