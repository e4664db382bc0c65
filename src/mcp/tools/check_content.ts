import { fixDocument } from '../../lint/fix.js';
import { maxBytes } from '../../lint/analyze.js';
import { ConfigError } from '../../model/errors.js';
import { closedObject, parseFailureSchema, warningsProperty } from '../schemas.js';
import { ToolError, defineTool, jsonOutput } from '../tool.js';
import { documentAt } from '../document-args.js';

const fixedContent = { type: 'string', description: 'The content after every fix that applies: check it again, then write it.' } as const;

export const checkContent = defineTool<{ path: string; content: string }>({
  name: 'check_content',
  title: 'Check proposed content',
  description: [
    'Check a proposed text for the document at a root-relative path before it is written, exactly as docgate lint would if the file held it; nothing is written.',
    'Use validate instead for files already on disk, and parse_sysrs only to see how a SysRS text parses.',
    'The path picks the kind, your own kinds included. Rules across files run against the live repository, so a name or id another document has is found.',
    'A failing text answers its ParseFailureResult; when mechanical fixes apply, fixed_content holds the fixed text (check it again before writing it). A path that is no document of any kind is an error.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description: 'Root-relative path of the document, e.g. processes/deploy.md or docs/sysrs/de/order-intake.md (it need not exist yet).',
      },
      content: { type: 'string', description: 'The whole text proposed for the file.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    anyOf: [
      closedObject(
        { valid: { type: 'boolean', const: true }, warnings: warningsProperty, fixed_content: fixedContent },
        ['valid'],
        'The text passes (with warnings, if any).',
      ),
      closedObject(
        { ...parseFailureSchema.properties, fixed_content: fixedContent },
        [...parseFailureSchema.required],
        'The text fails: its ParseFailureResult, and the fixed text when fixes apply.',
      ),
    ],
  },
  async handler({ path, content }, ctx) {
    const project = ctx.project();
    const ref = documentAt(path, project);
    const bytes = Buffer.from(content, 'utf8');
    let run: Awaited<ReturnType<typeof ctx.repo.check>>;
    try {
      // The kind as the list tools load it (a large one on worker threads), then this text laid over it.
      run = await ctx.repo.check(ref, bytes);
    } catch (e) {
      if (e instanceof ConfigError) throw new ToolError(`check_content cannot run: ${e.message}`);
      throw e;
    }
    const failure = run.results.find((r) => r.path === path);
    const warnings = run.warnings.find((r) => r.path === path);
    const fixed = bytes.length <= maxBytes(project, ref.kind) ? fixDocument(ref, bytes, project) : null;
    const fix = fixed === null ? {} : { fixed_content: fixed.toString('utf8') };
    if (failure) return jsonOutput({ ...failure, ...fix });
    return jsonOutput({ valid: true, ...(warnings ? { warnings: warnings.error } : {}), ...fix });
  },
});
