import type { Analysis, FileText, Located } from '../../core/analysis.js';
import { baseName, fileId, stem } from '../../core/analysis.js';
import { readFrontmatterDoc } from '../../core/frontmatter-doc.js';
import { append, diag, FILE_START, quote } from '../../core/position.js';
import type { RuleSet } from '../../core/schemas.js';
import type { Diagnostic, HeadingTable } from '../../core/types.js';
import { runRules } from '../../engine/analyze-file.js';
import { FRONTMATTER_RULES, duplicateKey } from '../../rules/frontmatter/index.js';
import { fileSize } from '../../rules/file/file-size.js';
import { SCHEMA_RULES } from '../../rules/schema/index.js';
import { checkSysrsBody } from './outline.js';

const FRONTMATTER_LAYER_RULES = [fileSize, ...FRONTMATTER_RULES, duplicateKey, ...SCHEMA_RULES];
import type { SysrsOutline } from './outline.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const LANGUAGE = /^[a-z]{2}$/;

function languages(rules: RuleSet): string {
  const langs = [...rules.headingTables.keys()].sort();
  return langs.length > 0 ? langs.map((l) => `\`${l}\``).join(', ') : 'none (no heading table exists)';
}

/** The heading table for a variant folder, or a diagnostic saying which languages have one. */
function tableFor(lang: string, rules: RuleSet): HeadingTable | Diagnostic {
  const table = LANGUAGE.test(lang) ? rules.headingTables.get(lang) : undefined;
  if (table) return table;
  const what = LANGUAGE.test(lang) ? `language \`${lang}\` without a heading table` : `folder ${quote(lang)} that is not a two-letter language code`;
  return diag(FILE_START, 'sysrs-language', `Unexpected ${what}, expected a language with a heading table: ${languages(rules)}`);
}

/** Strips the blank lines directly after the frontmatter: raw line 1 is the first line after them (SPEC §4.4). */
function rawBodyOf(body: string, bodyLineOffset: number): { rawBody: string; rawBodyLine: number } {
  const lead = /^(?:[ \t]*\r?\n)*/.exec(body)![0];
  let skipped = 0;
  for (let i = lead.indexOf('\n'); i !== -1; i = lead.indexOf('\n', i + 1)) skipped++;
  return { rawBody: body.slice(lead.length), rawBodyLine: bodyLineOffset + 1 + skipped };
}

/**
 * Checks one SysRS file: frontmatter by schema, body by the outline (through the variant's heading table).
 * `withBody: false` skips the body (used when only the cross-file facts of a file are needed).
 */
export function analyzeSysrs(file: FileText, rules: RuleSet, withBody = true): Analysis {
  const diagnostics: Diagnostic[] = [];
  let table: HeadingTable | null = null;
  let checkBody = withBody;
  if (file.lang !== null) {
    const t = tableFor(file.lang, rules);
    if ('rule' in t) {
      diagnostics.push(t);
      checkBody = false;
    } else table = t;
  }
  const { frontmatter: fm, schema } = readFrontmatterDoc(file.text, rules.sysrs);
  append(diagnostics, runRules(FRONTMATTER_LAYER_RULES, { path: file.path, problem: null, decoding: null, fileName: null }, { frontmatter: fm, schema }));
  const writtenId = fm.written?.id;
  const id: Located<string> | null = typeof writtenId === 'string' && UUID.test(writtenId) ? { value: writtenId, ...fm.locator.value(['id']) } : null;

  let title: string | null = null;
  let body: unknown = null;
  if (checkBody && !fm.split.unterminated) {
    const check = checkSysrsBody(fm.split.body, fm.split.bodyLineOffset, rules.outline as SysrsOutline, table);
    append(diagnostics, check.diagnostics);
    title = check.title;
    body = check.body;
  }
  const ref = stem(file.path);
  const docId = id?.value ?? fileId('sysrs', file.path);
  const ok = diagnostics.length === 0 && withBody && fm.data !== null && id !== null;
  return {
    path: file.path,
    kind: 'sysrs',
    id: docId,
    diagnostics,
    facts: { kind: 'sysrs', id, lang: file.lang, file: baseName(file.path) },
    doc: ok
      ? { kind: 'sysrs', id: id.value, lang: file.lang, ref, title: title ?? '', frontmatter: fm.data!, body, ...rawBodyOf(fm.split.body, fm.split.bodyLineOffset) }
      : null,
  };
}
