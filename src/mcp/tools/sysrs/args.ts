import { LANGUAGE, UUID } from '../../../kinds/sysrs/parse.js';
import { ToolError } from '../../tool.js';
import type { ToolContext } from '../../tool.js';

/** Checks a SysRS id's shape; pure (before any file is read: docs/mcp-tools.md). */
export function checkSysrsId(id: string): string {
  if (id.includes('/') || id.includes('\\') || id.includes('..') || !UUID.test(id)) {
    throw new ToolError(
      `Invalid id '${id}': expected the document's frontmatter id, a lowercase canonical UUID such as 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c (no prefix, no path; list_sysrs shows the ids).`,
    );
  }
  return id;
}

/**
 * Checks `language`: its shape first (pure), then that a heading table exists (reads rule files only).
 * Returns the variant folder, or null for English.
 */
export function checkLanguage(language: string | undefined, ctx: ToolContext): string | null {
  const lang = language ?? 'en';
  if (!LANGUAGE.test(lang)) {
    throw new ToolError(`Invalid language '${lang}': expected a two-letter lowercase code such as 'en' or 'de'.`);
  }
  if (lang === 'en') return null;
  const project = ctx.project();
  const tables = project.data(project.kind('sysrs')!).headingTables;
  if (!tables.has(lang)) {
    const available = ['en', ...[...tables.keys()].filter((l) => l !== 'en').sort()];
    throw new ToolError(
      `Unsupported language '${lang}': no heading table schemas/sysrs-headings.${lang}.json exists. Available languages: ${available.join(', ')}.`,
    );
  }
  return lang;
}
