import { ConfigError } from '../../model/errors.js';
import { closedObject, parseFailureSchema } from '../schemas.js';
import { ToolError, defineTool, jsonOutput } from '../tool.js';

export const validate = defineTool<{ paths?: string[] }>({
  name: 'validate',
  title: 'Validate content',
  description: [
    'Lint the files as they are on disk, the whole root or the files and folders given, with the rules, configuration and baseline of docgate lint.',
    'Use check_content instead for a text that is not written yet, and get_document to read one failing document with its text.',
    'Rules across files always see the whole root, even when paths narrow the check. Only the files that fail are listed, each as its ParseFailureResult.',
    'A path outside the root, or a configuration that is not valid, is an error.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      paths: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Files or folders to check, relative to the root or absolute inside it; without paths the whole root is checked.',
      },
    },
    additionalProperties: false,
  },
  outputSchema: closedObject({
    results: { type: 'array', items: parseFailureSchema },
    filesChecked: { type: 'integer', minimum: 0 },
    problemCount: { type: 'integer', minimum: 0 },
  }),
  async handler({ paths }, ctx) {
    try {
      // The lint pipeline over the server's live memory: warm calls re-read nothing that did not change.
      const run = await ctx.repo.lint(paths);
      return jsonOutput({ results: run.results, filesChecked: run.filesChecked, problemCount: run.problemCount });
    } catch (e) {
      if (e instanceof ConfigError) throw new ToolError(`validate cannot run: ${e.message}`);
      throw e;
    }
  },
});
