import type { FrameworkDoc } from '../../../kinds/framework/parse.js';
import { closedObject, notFoundSchema, parseFailureAnswerSchema, resultSchema, warningsProperty } from '../../schemas.js';
import { failureAnswer, notFoundOutput, outcome, withWarnings } from '../../entries.js';
import { defineTool, resultOutput } from '../../tool.js';

export const getFramework = defineTool<{ name: string }>({
  name: 'get_framework',
  title: 'Get a framework doc',
  description: [
    "Get one prompt-framework document's text by its file name (POWER.md, or POWER without the extension).",
    'Use list_frameworks instead when you do not know the file name.',
    'An unknown name is a normal answer naming the documents there are.',
    "A document that fails to parse answers its ParseFailureResult with the file's text in content: repair that text and check it with check_content.",
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1, description: 'File name in frameworks/, e.g. POWER.md (see list_frameworks).' } },
    required: ['name'],
    additionalProperties: false,
  },
  outputSchema: resultSchema(
    closedObject(
      { name: { type: 'string' }, size: { type: 'integer', minimum: 0 }, content: { type: 'string' }, warnings: warningsProperty },
      ['name', 'size', 'content'],
      'A framework doc: its size in bytes and its whole text.',
    ),
    parseFailureAnswerSchema,
    notFoundSchema('FRAMEWORK_NOT_FOUND'),
  ),
  async handler({ name }, ctx) {
    const entries = await ctx.repo.load('framework');
    const entry = entries.find((e) => e.analysis.id === name) ?? entries.find((e) => e.analysis.id === `${name}.md`);
    if (!entry) return notFoundOutput('Framework', 'FRAMEWORK_NOT_FOUND', name, entries);
    const { doc, failure } = outcome<FrameworkDoc>(entry, ctx);
    if (failure) return resultOutput(failureAnswer(failure, entry, ctx));
    return resultOutput(withWarnings({ name: doc.name, size: doc.size, content: doc.content }, entry), doc.content);
  },
});
