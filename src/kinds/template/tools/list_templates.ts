import type { TemplateDoc } from '../../../core/analysis.js';
import { closedObject, parseFailureSchema } from '../../../mcp/schemas.js';
import { failuresText, partition } from '../../../mcp/entries.js';
import { byCodePoint } from '../../../mcp/text.js';
import { defineTool } from '../../../mcp/tool.js';

export const listTemplates = defineTool<Record<string, never>>({
  name: 'list_templates',
  title: 'List POWER templates',
  description:
    'List the POWER documentation templates (templates/power/*.txt) by name, sorted. Templates that fail to parse are listed after the valid ones with their first error line; structuredContent carries every valid template (name, save_as, store_as) and the full ParseFailureResult of each failure.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: closedObject({
    templates: { type: 'array', items: closedObject({ name: { type: 'string' }, save_as: { type: 'string' }, store_as: { type: 'string' } }) },
    failures: { type: 'array', items: parseFailureSchema },
  }),
  handler(_args, ctx) {
    const { docs, failures } = partition<TemplateDoc>(ctx.repo.entries('template'));
    const templates = docs.map((doc) => ({ name: doc.name, save_as: doc.fields.save_as ?? '', store_as: doc.fields.store_as ?? '' }));
    templates.sort((a, b) => byCodePoint(a.name, b.name));
    const text =
      (templates.length === 0
        ? 'No templates found in templates/power/'
        : `Available POWER Framework Templates:\n\n${templates.map((t, i) => `${i + 1}. ${t.name}\n`).join('')}\nTotal: ${templates.length} templates`) + failuresText(failures);
    return { text, structured: { templates, failures } };
  },
});
