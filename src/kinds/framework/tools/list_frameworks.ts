import type { FrameworkDoc } from '../../../core/analysis.js';
import { formatBytes } from '../../../core/text.js';
import { closedObject, parseFailureSchema } from '../../../mcp/schemas.js';
import { failuresText, partition } from '../../../mcp/entries.js';
import { byCodePoint } from '../../../mcp/text.js';
import { defineTool } from '../../../mcp/tool.js';

export const listFrameworks = defineTool<Record<string, never>>({
  name: 'list_frameworks',
  title: 'List framework docs',
  description:
    'List the prompt-framework documents (frameworks/*.md) with their sizes in bytes, sorted by file name. Documents that fail to parse are listed after the valid ones with their first error line; structuredContent carries {frameworks: [{name, size}], failures: ParseFailureResult[]}.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: closedObject({
    frameworks: { type: 'array', items: closedObject({ name: { type: 'string' }, size: { type: 'integer', minimum: 0 } }) },
    failures: { type: 'array', items: parseFailureSchema },
  }),
  handler(_args, ctx) {
    const { docs, failures } = partition<FrameworkDoc>(ctx.repo.entries('framework'));
    const frameworks = docs.map((doc) => ({ name: doc.name, size: doc.size }));
    frameworks.sort((a, b) => byCodePoint(a.name, b.name));
    const text =
      (frameworks.length === 0
        ? 'No framework documentation found'
        : `Available Framework Documentation:\n\n${frameworks.map((f, i) => `${i + 1}. ${f.name} (${formatBytes(f.size)} bytes)\n`).join('')}\nTotal: ${frameworks.length} framework docs`) + failuresText(failures);
    return { text, structured: { frameworks, failures } };
  },
});
