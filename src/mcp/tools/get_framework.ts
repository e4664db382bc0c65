import type { FrameworkDoc } from '../../core/analysis.js';
import { notFoundSchema, parseFailureSchema } from '../schemas.js';
import { outcome } from '../entries.js';
import { byCodePoint } from '../text.js';
import { defineTool } from '../tool.js';

export const getFramework = defineTool<{ name: string }>({
  name: 'get_framework',
  title: 'Get a framework doc',
  description:
    "Return one framework document by file name (e.g. POWER.md; the name without `.md` is accepted too): the text is the document itself. An unknown name answers `Framework '<x>' not found. Available: …`; a document that fails to parse answers its ParseFailureResult (JSON). structuredContent.result holds {name, size, content}, the ParseFailureResult, or {error: \"FRAMEWORK_NOT_FOUND\", message, available}.",
  inputSchema: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 1, description: 'File name in frameworks/, e.g. POWER.md (see list_frameworks).' } },
    required: ['name'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      result: {
        anyOf: [
          {
            type: 'object',
            properties: { name: { type: 'string' }, size: { type: 'integer', minimum: 0 }, content: { type: 'string' } },
            required: ['name', 'size', 'content'],
            additionalProperties: false,
          },
          parseFailureSchema,
          notFoundSchema('FRAMEWORK_NOT_FOUND'),
        ],
      },
    },
    required: ['result'],
    additionalProperties: false,
  },
  handler({ name }, ctx) {
    const entries = ctx.repo.entries('framework');
    const entry = entries.find((e) => e.analysis.id === name) ?? entries.find((e) => e.analysis.id === `${name}.md`);
    if (!entry) {
      const available = entries.map((e) => e.analysis.id).sort(byCodePoint);
      const message = `Framework '${name}' not found. Available: ${available.join(', ')}`;
      return { text: message, structured: { result: { error: 'FRAMEWORK_NOT_FOUND', message, available } } };
    }
    const { doc, failure } = outcome<FrameworkDoc>(entry);
    if (failure) return { text: JSON.stringify(failure, null, 2), structured: { result: failure } };
    return { text: doc.content, structured: { result: { name: doc.name, size: doc.size, content: doc.content } } };
  },
});
