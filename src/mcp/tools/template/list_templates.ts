import type { DocRow } from '../../../model/analysis.js';
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { partition } from '../../entries.js';
import { FULL_PAGE, numberedListing, pageInput, pageProperties } from '../../paging.js';
import { defineTool } from '../../tool.js';

export const listTemplates = defineTool<{ max_results?: number; offset?: number }>({
  name: 'list_templates',
  title: 'List POWER templates',
  description: [
    'List the POWER documentation templates (templates/power/*.txt) by name, in code-point order.',
    "Use get_template instead when you know the name and want the template's text.",
    'A template that fails to parse is listed after the valid ones with its first error line, and its whole ParseFailureResult is in failures.',
    'At most 1,000 rows (the valid templates, then the failures) per answer, fewer when they are long; while truncated is true, call again with offset raised by the rows shown.',
  ].join('\n'),
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
