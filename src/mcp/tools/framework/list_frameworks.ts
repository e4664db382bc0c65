import type { DocRow } from '../../../model/analysis.js';
import { formatBytes } from '../../../model/text.js';
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { partition } from '../../entries.js';
import { FULL_PAGE, numberedListing, pageInput, pageProperties } from '../../paging.js';
import { defineTool } from '../../tool.js';

export const listFrameworks = defineTool<{ max_results?: number; offset?: number }>({
  name: 'list_frameworks',
  title: 'List framework docs',
  description: [
    'List the prompt-framework documents (frameworks/*.md) by file name, each with its size in bytes.',
    "Use get_framework instead when you know the file name and want the document's text.",
    'A document that fails to parse is listed after the valid ones with its first error line, and its whole ParseFailureResult is in failures.',
    'At most 1,000 rows (the valid documents, then the failures) per answer, fewer when they are long; while truncated is true, call again with offset raised by the rows shown.',
  ].join('\n'),
  inputSchema: { type: 'object', properties: { ...pageInput(FULL_PAGE) }, additionalProperties: false },
  outputSchema: closedObject(
    {
      frameworks: { type: 'array', items: closedObject({ name: { type: 'string' }, size: { type: 'integer', minimum: 0 } }) },
      failures: { type: 'array', items: parseFailureSchema },
      ...pageProperties(FULL_PAGE),
    },
    ['frameworks', 'failures'],
  ),
  async handler(args, ctx) {
    const { rows, failures } = partition<DocRow & { name: string; size: number }>(await ctx.repo.load('framework'));
    const every = rows.map((r) => ({ name: r.name, size: r.size }));
    return numberedListing(every, failures, args, 'frameworks', {
      empty: 'No framework documentation found',
      heading: 'Available Framework Documentation',
      line: (f) => `${f.name} (${formatBytes(f.size)} bytes)`,
      what: 'framework docs',
    });
  },
});
