import { kindsFor, lint } from '../../lint/lint.js';
import { ConfigError } from '../../model/errors.js';
import { closedObject, failureSchema } from '../schemas.js';
import { ToolError, defineTool, jsonOutput } from '../tool.js';

export const validate = defineTool<{ paths?: string[] }>({
  name: 'validate',
  title: 'Validate content',
  description:
    'Run the docgate linter over the root, or over some files or folders of it (paths relative to the root, or absolute inside it); cross-file rules always see the whole root. Returns {results: ParseFailureResult[], filesChecked, problemCount}, exactly as `docgate lint --format json`.',
  inputSchema: {
    type: 'object',
    properties: {
      paths: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Files or folders to check (default: the whole root).' },
    },
    additionalProperties: false,
  },
  outputSchema: (kinds) =>
    closedObject({
      results: { type: 'array', items: failureSchema(kinds) },
      filesChecked: { type: 'integer', minimum: 0 },
      problemCount: { type: 'integer', minimum: 0 },
    }),
  handler({ paths }, ctx) {
    try {
      // The lint pipeline over the server's live memory: warm calls re-read nothing that did not change.
      const project = ctx.project();
      // On a cold server each kind the lint needs is loaded as the list tools load it (a large kind on
      // lint's threads, docs/performance.md "How a large run works": entries() stops this handler, the
      // kind is loaded, the handler runs again), so the lint below finds every document remembered.
      // Warm, a look at each kind's watch.
      ctx.repo.remember(kindsFor(project, paths, ctx.root));
      const run = lint({ root: ctx.root, paths: paths ?? [], cwd: ctx.root, project }, ctx.repo.lintMemo(project));
      return jsonOutput({ results: run.results, filesChecked: run.filesChecked, problemCount: run.problemCount });
    } catch (e) {
      if (e instanceof ConfigError) throw new ToolError(`validate cannot run: ${e.message}`);
      throw e;
    }
  },
});
