import type { DocRow } from '../../../model/analysis.js';
import { partition } from '../../entries.js';
import { FULL_PAGE, pageInput, windowProperties, windowOf } from '../../paging.js';
import { closedObject, parseFailureSchema } from '../../schemas.js';
import { defineTool, jsonOutput } from '../../tool.js';

export const listProcesses = defineTool<{ max_results?: number; offset?: number }>({
  name: 'list_processes',
  title: 'List processes',
  description:
    'List the process documents (processes/*.md): {processes: [{name, slug, description}], count, error_count, failures}. `name` is the frontmatter name (or derived from the slug), `slug` the file stem; documents that fail to parse are counted in error_count and carried in failures as ParseFailureResults. Paging: at most 1,000 rows (the processes, then the failures) per answer; max_results (default 1,000, clamped to 1..1,000) and offset (default 0) choose the window, and then, or when a listing is cut, the answer adds total, offset, max_results and truncated (count and error_count still count every document).',
  inputSchema: { type: 'object', properties: { ...pageInput(FULL_PAGE) }, additionalProperties: false },
  outputSchema: closedObject(
    {
      processes: { type: 'array', items: closedObject({ name: { type: 'string' }, slug: { type: 'string' }, description: { type: 'string' } }) },
      count: { type: 'integer', minimum: 0 },
      error_count: { type: 'integer', minimum: 0 },
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
