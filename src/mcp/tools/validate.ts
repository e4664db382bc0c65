import { ConfigError } from '../../model/errors.js';
import { closedObject, parseFailureSchema } from '../schemas.js';
import { ToolError, defineTool, jsonOutput } from '../tool.js';

export const validate = defineTool<{ paths?: string[] }>({
  name: 'validate',
  title: 'Validate content',
  description:
    'Run the docgate linter over the root, or over some files or folders of it (paths relative to the root, or absolute inside it); cross-file rules always see the whole root. Returns {results: ParseFailureResult[], filesChecked, problemCount}: the results, files checked and problem count of `docgate lint --format json` (without its warnings and error and warning counts).',
  inputSchema: {
    type: 'object',
    properties: {
      paths: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Files or folders to check (default: the whole root).' },
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
