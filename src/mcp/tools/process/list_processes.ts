import type { DocRow } from '../../../model/analysis.js';
import { partition } from '../../entries.js';
import { FULL_PAGE, pageInput, windowProperties, windowOf } from '../../paging.js';
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { defineTool, jsonOutput } from '../../tool.js';

export const listProcesses = defineTool<{ max_results?: number; offset?: number }>({
  name: 'list_processes',
  title: 'List processes',
  description: [
    'List the process documents (processes/*.md) with the name, slug and one-line description of each.',
    'Use search_processes instead to find processes by a word they contain, and get_process to read one.',
    'Documents that fail to parse are counted apart and carried as ParseFailureResults in failures.',
    'At most 1,000 rows (the processes, then the failures) per answer, fewer when they are long; while truncated is true, call again with offset raised by the rows shown. The counts always cover every document.',
  ].join('\n'),
  inputSchema: { type: 'object', properties: { ...pageInput(FULL_PAGE) }, additionalProperties: false },
  outputSchema: closedObject(
    {
      processes: { type: 'array', items: closedObject({ name: { type: 'string' }, slug: { type: 'string' }, description: { type: 'string' } }) },
      count: { type: 'integer', minimum: 0, description: 'Processes that parse, all of them (not only this window).' },
      error_count: { type: 'integer', minimum: 0, description: 'Processes that fail to parse, all of them.' },
      failures: { type: 'array', items: parseFailureSchema },
      message: { type: 'string' },
      ...windowProperties(FULL_PAGE),
    },
    ['processes', 'count', 'error_count', 'failures'],
  ),
  async handler(args, ctx) {
    const { rows, failures: all } = partition<DocRow & { name: string; slug: string; description: string }>(await ctx.repo.load('process'));
    const every = rows.map((r) => ({ name: r.name, slug: r.slug, description: r.description }));
    const { valid: processes, failures, window } = windowOf(every, all, args);
    const out: Record<string, unknown> = { processes, count: every.length, error_count: all.length, failures };
    if (every.length === 0 && all.length === 0) out.message = 'No processes found in the process directory.';
    return jsonOutput(window ? { ...out, ...window } : out);
  },
});
