import type { TemplateDoc } from '../../core/analysis.js';
import type { ParseFailureResult } from '../../core/types.js';
import { parseFailureSchema } from '../schemas.js';
import { byCodePoint, firstLine } from '../text.js';
import { defineTool } from '../tool.js';

export const listTemplates = defineTool<Record<string, never>>({
  name: 'list_templates',
  title: 'List POWER templates',
  description:
    'List the POWER documentation templates (templates/power/*.txt) by name, sorted. Templates that fail to parse are listed after the valid ones with their first error line; structuredContent carries every valid template (name, save_as, store_as) and the full ParseFailureResult of each failure.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  outputSchema: {
    type: 'object',
    properties: {
      templates: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string' }, save_as: { type: 'string' }, store_as: { type: 'string' } },
          required: ['name', 'save_as', 'store_as'],
          additionalProperties: false,
        },
      },
      failures: { type: 'array', items: parseFailureSchema },
    },
    required: ['templates', 'failures'],
    additionalProperties: false,
  },
  handler(_args, ctx) {
    const templates: { name: string; save_as: string; store_as: string }[] = [];
    const failures: ParseFailureResult[] = [];
    for (const e of ctx.repo.entries('template')) {
      if (e.failure) failures.push(e.failure);
      else if (e.analysis.doc) {
        const doc = e.analysis.doc as TemplateDoc;
        templates.push({ name: doc.name, save_as: doc.fields.save_as ?? '', store_as: doc.fields.store_as ?? '' });
      }
    }
    templates.sort((a, b) => byCodePoint(a.name, b.name));
    let text =
      templates.length === 0
        ? 'No templates found in templates/power/'
        : `Available POWER Framework Templates:\n\n${templates.map((t, i) => `${i + 1}. ${t.name}\n`).join('')}\nTotal: ${templates.length} templates`;
    if (failures.length > 0) {
      text += `\n\nFailed to parse: ${failures.length}\n${failures.map((f) => `${f.id}: ${firstLine(f.error)}`).join('\n')}`;
    }
    return { text, structured: { templates, failures } };
  },
});
