import type { ProcessDoc } from '../../../core/analysis.js';
import { partition } from '../../../mcp/entries.js';
import { closedObject, parseFailureSchema } from '../../../mcp/schemas.js';
import { defineTool, jsonOutput } from '../../../mcp/tool.js';

export const listProcesses = defineTool<Record<string, never>>({
  name: 'list_processes',
  title: 'List processes',
  description:
    'List the process documents (processes/*.md): {processes: [{name, slug, description}], count, error_count, failures}. `name` is the frontmatter name (or derived from the slug), `slug` the file stem; documents that fail to parse are counted in error_count and carried in failures as ParseFailureResults.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: closedObject(
    {
      processes: { type: 'array', items: closedObject({ name: { type: 'string' }, slug: { type: 'string' }, description: { type: 'string' } }) },
      count: { type: 'integer', minimum: 0 },
      error_count: { type: 'integer', minimum: 0 },
      failures: { type: 'array', items: parseFailureSchema },
      message: { type: 'string' },
    },
    ['processes', 'count', 'error_count', 'failures'],
  ),
  handler(_args, ctx) {
    const { docs, failures } = partition<ProcessDoc>(ctx.repo.entries('process'));
    const processes = docs.map((doc) => ({ name: doc.name, slug: doc.slug, description: doc.description }));
    const out: Record<string, unknown> = { processes, count: processes.length, error_count: failures.length, failures };
    if (processes.length === 0 && failures.length === 0) out.message = 'No processes found in the process directory.';
    return jsonOutput(out);
  },
});
