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
  description: [
    "Get one process document's markdown body by its slug (the file stem) or its frontmatter name, ignoring letter case.",
    'Use search_processes instead when you know only a word it contains, and list_processes to see every slug.',
    'An unknown name is a normal answer (PROCESS_NOT_FOUND) listing the slugs there are.',
    "A document that fails to parse answers its ParseFailureResult with the file's text in content: repair that text and check it with check_content.",
  ].join('\n'),
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
      'A process: its name, slug, description and markdown body.',
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
