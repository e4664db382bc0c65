import type { DocRow } from '../../../core/analysis.js';
import { closedObject, parseFailureSchema } from '../../../mcp/schemas.js';
import { failuresText, partition } from '../../../mcp/entries.js';
import { FULL_PAGE, pageInput, pageProperties, windowOf, windowText } from '../../../mcp/paging.js';
import { byCodePoint } from '../../../mcp/text.js';
import { defineTool } from '../../../mcp/tool.js';

export const listTemplates = defineTool<{ max_results?: number; offset?: number }>({
  name: 'list_templates',
  title: 'List POWER templates',
  description:
    'List the POWER documentation templates (templates/power/*.txt) by name, sorted. Templates that fail to parse are listed after the valid ones with their first error line; structuredContent carries every valid template (name, save_as, store_as) and the full ParseFailureResult of each failure. Paging: at most 1,000 rows (the valid templates, then the failures) per answer; max_results (default 1,000, clamped to 1..1,000) and offset (default 0) choose the window, and then, or when a listing is cut, the text ends with the rows shown and structuredContent adds total, offset, max_results, truncated and error_count (every failure).',
  inputSchema: { type: 'object', properties: { ...pageInput(FULL_PAGE) }, additionalProperties: false },
  outputSchema: closedObject(
    {
      templates: { type: 'array', items: closedObject({ name: { type: 'string' }, save_as: { type: 'string' }, store_as: { type: 'string' } }) },
      failures: { type: 'array', items: parseFailureSchema },
      ...pageProperties(FULL_PAGE),
    },
    ['templates', 'failures'],
  ),
  handler(args, ctx) {
    const { rows, failures: all } = partition<DocRow & { name: string; save_as: string; store_as: string }>(ctx.repo.entries('template'));
    const every = rows.map((r) => ({ name: r.name, save_as: r.save_as, store_as: r.store_as }));
    every.sort((a, b) => byCodePoint(a.name, b.name));
    const { valid: templates, failures, window } = windowOf(every, all, args);
    const first = window?.offset ?? 0;
    const text =
      (every.length === 0
        ? 'No templates found in templates/power/'
        : `Available POWER Framework Templates:\n\n${templates.map((t, i) => `${first + i + 1}. ${t.name}\n`).join('')}\nTotal: ${every.length} templates`) +
      failuresText(failures, all.length) +
      (window ? windowText(window, templates.length + failures.length, 'templates') : '');
    return { text, structured: { templates, failures, ...(window ? { ...window, error_count: all.length } : {}) } };
  },
});
