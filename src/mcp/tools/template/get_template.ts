import type { TemplateDoc } from '../../../kinds/template/parse.js';
import { closedObject, notFoundSchema, parseFailureAnswerSchema, resultSchema, warningsProperty } from '../../schemas.js';
import { failureAnswer, notFoundOutput, outcome, withWarnings } from '../../entries.js';
import { defineTool, resultOutput } from '../../tool.js';

export const getTemplate = defineTool<{ template_name: string }>({
  name: 'get_template',
  title: 'Get a POWER template',
  description: [
    "Get one POWER template's text by its exact name (the file stem, letter case counting): a `=== NAME Template ===` heading, then the file as it is on disk.",
    'Use list_templates instead when you do not know the name.',
    'An unknown name is a normal answer naming the templates there are.',
    "A template that fails to parse answers its ParseFailureResult with the file's text in content: repair that text and check it with check_content.",
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      template_name: {
        type: 'string',
        minLength: 1,
        description: 'Template name: the file stem in templates/power/, e.g. readme, architecture, api, components, schema (see list_templates).',
      },
    },
    required: ['template_name'],
    additionalProperties: false,
  },
  outputSchema: resultSchema(
    closedObject(
      {
        name: { type: 'string' },
        fields: { type: 'object', additionalProperties: { type: 'string' } },
        content: { type: 'string' },
        warnings: warningsProperty,
      },
      ['name', 'fields', 'content'],
      'A POWER template: its fields and its whole text.',
    ),
    parseFailureAnswerSchema,
    notFoundSchema('TEMPLATE_NOT_FOUND'),
  ),
  async handler({ template_name: name }, ctx) {
    const entries = await ctx.repo.load('template');
    const entry = entries.find((e) => e.analysis.id === name);
    if (!entry) return notFoundOutput('Template', 'TEMPLATE_NOT_FOUND', name, entries);
    const { doc, failure } = outcome<TemplateDoc>(entry, ctx);
    if (failure) return resultOutput(failureAnswer(failure, entry, ctx));
    return resultOutput(
      withWarnings({ name: doc.name, fields: doc.fields, content: doc.content }, entry),
      `=== ${doc.name.toUpperCase()} Template ===\n\n${doc.content}`,
    );
  },
});
