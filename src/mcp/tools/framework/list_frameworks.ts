import type { DocRow } from '../../../model/analysis.js';
import { formatBytes } from '../../../model/text.js';
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { partition } from '../../entries.js';
import { FULL_PAGE, numberedListing, pageInput, pageProperties } from '../../paging.js';
import { defineTool } from '../../tool.js';

export const listFrameworks = defineTool<{ max_results?: number; offset?: number }>({
  name: 'list_frameworks',
  title: 'List framework docs',
  description:
    'List the prompt-framework documents (frameworks/*.md) with their sizes in bytes, sorted by file name. Documents that fail to parse are listed after the valid ones with their first error line; structuredContent carries {frameworks: [{name, size}], failures: ParseFailureResult[]}. Paging: at most 1,000 rows (the valid documents, then the failures) per answer; max_results (default 1,000, clamped to 1..1,000) and offset (default 0) choose the window, and then, or when a listing is cut, the text ends with the rows shown and structuredContent adds total, offset, max_results, truncated and error_count (every failure).',
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
