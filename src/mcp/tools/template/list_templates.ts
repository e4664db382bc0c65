import type { DocRow } from '../../../model/analysis.js';
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { partition } from '../../entries.js';
import { FULL_PAGE, numberedListing, pageInput, pageProperties } from '../../paging.js';
import { defineTool } from '../../tool.js';

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
  async handler(args, ctx) {
    const { rows, failures } = partition<DocRow & { name: string; save_as: string; store_as: string }>(await ctx.repo.load('template'));
    const every = rows.map((r) => ({ name: r.name, save_as: r.save_as, store_as: r.store_as }));
    return numberedListing(every, failures, args, 'templates', {
      empty: 'No templates found in templates/power/',
      heading: 'Available POWER Framework Templates',
      line: (t) => t.name,
      what: 'templates',
    });
  },
});
