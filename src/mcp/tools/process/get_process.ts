import type { ProcessDoc, ProcessFacts } from '../../../kinds/process/parse.js';
import type { Entry } from '../../../lint/repository.js';
import { failureAnswer, outcome, withWarnings } from '../../entries.js';
import { closedObject, notFoundSchema, parseFailureAnswerSchema, resultSchema, warningsProperty } from '../../schemas.js';
import { defineTool, resultOutput } from '../../tool.js';

/** The name a process answers to besides its slug: the parsed name, or the one a failing file still declares. */
function nameOf(e: Entry): string | null {
  if (e.analysis.row) return String(e.analysis.row.name);
  return e.analysis.facts.kind === 'process' ? ((e.analysis.facts as ProcessFacts).name?.value ?? null) : null;
}

export const getProcess = defineTool<{ name: string }>({
  name: 'get_process',
  title: 'Get a process',
  description:
    'Return one process document by slug (file stem, e.g. code-review) or by its frontmatter name (e.g. "Code Review"), ignoring letter case: {name, slug, description, content} where content is the markdown body without frontmatter. Unknown → {error: "PROCESS_NOT_FOUND", message, available: [slugs]}; a document that fails to parse → its ParseFailureResult with `content`, the file\'s text, to repair it (check the repair with check_content).',
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1, description: 'Slug (e.g. code-review) or frontmatter name (e.g. Code Review), any letter case.' } },
    required: ['name'],
    additionalProperties: false,
  },
  // Wrapped in `result` like the other get tools; the text stays the seed's flat JSON of the answer.
  outputSchema: resultSchema(
    closedObject(
      { name: { type: 'string' }, slug: { type: 'string' }, description: { type: 'string' }, content: { type: 'string' }, warnings: warningsProperty },
      ['name', 'slug', 'description', 'content'],
    ),
    parseFailureAnswerSchema,
    notFoundSchema('PROCESS_NOT_FOUND'),
  ),
  async handler({ name }, ctx) {
    const wanted = name.toLowerCase();
    const entries = await ctx.repo.load('process');
    const entry = entries.find((e) => e.analysis.id.toLowerCase() === wanted) ?? entries.find((e) => nameOf(e)?.toLowerCase() === wanted);
    if (!entry) {
      return resultOutput({ error: 'PROCESS_NOT_FOUND', message: `Process '${name}' not found.`, available: entries.map((e) => e.analysis.id) });
    }
    const { doc, failure } = outcome<ProcessDoc>(entry, ctx);
    if (failure) return resultOutput(failureAnswer(failure, entry, ctx));
    return resultOutput(withWarnings({ name: doc.name, slug: doc.slug, description: doc.description, content: doc.content }, entry));
  },
});
