import type { FrameworkDoc } from '../../../kinds/framework/parse.js';
import { closedObject, notFoundSchema, parseFailureAnswerSchema, resultSchema, warningsProperty } from '../../schemas.js';
import { failureAnswer, notFoundOutput, outcome, withWarnings } from '../../entries.js';
import { defineTool, resultOutput } from '../../tool.js';

export const getFramework = defineTool<{ name: string }>({
  name: 'get_framework',
  title: 'Get a framework doc',
  description:
    "Return one framework document by file name (e.g. POWER.md; the name without `.md` is accepted too): the text is the document itself. An unknown name answers `Framework '<x>' not found. Available: …`; a document that fails to parse answers its ParseFailureResult (JSON) with `content`, the file's text, to repair it (check the repair with check_content). structuredContent.result holds {name, size, content}, the ParseFailureResult, or {error: \"FRAMEWORK_NOT_FOUND\", message, available}.",
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1, description: 'File name in frameworks/, e.g. POWER.md (see list_frameworks).' } },
    required: ['name'],
    additionalProperties: false,
  },
  outputSchema: resultSchema(
    closedObject({ name: { type: 'string' }, size: { type: 'integer', minimum: 0 }, content: { type: 'string' }, warnings: warningsProperty }, [
      'name',
      'size',
      'content',
    ]),
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
