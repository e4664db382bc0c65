import type { FrameworkDoc } from '../../core/analysis.js';
import type { ParseFailureResult } from '../../core/types.js';
import { parseFailureSchema } from '../schemas.js';
import { byCodePoint, firstLine, thousands } from '../text.js';
import { defineTool } from '../tool.js';

export const listFrameworks = defineTool<Record<string, never>>({
  name: 'list_frameworks',
  title: 'List framework docs',
  description:
    'List the prompt-framework documents (frameworks/*.md) with their sizes in bytes, sorted by file name. Documents that fail to parse are listed after the valid ones with their first error line; structuredContent carries {frameworks: [{name, size}], failures: ParseFailureResult[]}.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      frameworks: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, size: { type: 'integer', minimum: 0 } },
          required: ['name', 'size'],
          additionalProperties: false,
        },
      },
      failures: { type: 'array', items: parseFailureSchema },
    },
    required: ['frameworks', 'failures'],
    additionalProperties: false,
  },
  handler(_args, ctx) {
    const frameworks: { name: string; size: number }[] = [];
    const failures: ParseFailureResult[] = [];
    for (const e of ctx.repo.entries('framework')) {
      if (e.failure) failures.push(e.failure);
      else if (e.analysis.doc) {
        const doc = e.analysis.doc as FrameworkDoc;
        frameworks.push({ name: doc.name, size: doc.size });
      }
    }
    frameworks.sort((a, b) => byCodePoint(a.name, b.name));
    let text =
      frameworks.length === 0
        ? 'No framework documentation found'
        : `Available Framework Documentation:\n\n${frameworks.map((f, i) => `${i + 1}. ${f.name} (${thousands(f.size)} bytes)\n`).join('')}\nTotal: ${frameworks.length} framework docs`;
    if (failures.length > 0) {
      text += `\n\nFailed to parse: ${failures.length}\n${failures.map((f) => `${f.id}: ${firstLine(f.error)}`).join('\n')}`;
    }
    return { text, structured: { frameworks, failures } };
  },
});
