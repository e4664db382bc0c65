import type { SysrsDoc } from '../../../kinds/sysrs/parse.js';
import { failureAnswer, outcome, withWarnings } from '../../entries.js';
import { languageInput, sysrsResultSchema } from '../../schemas.js';
import { checkLanguage, checkSysrsId } from './args.js';
import { windowLines } from '../../text.js';
import { ToolError, defineTool, resultOutput } from '../../tool.js';

interface Args {
  id: string;
  raw?: boolean;
  offset?: number;
  limit?: number;
  numbered?: boolean;
  language?: string;
}

export const getSysrs = defineTool<Args>({
  name: 'get_sysrs',
  title: 'Get a System Requirements Specification',
  description: [
    'Read one System Requirements Specification by its frontmatter id (a lowercase UUID; list_sysrs shows them).',
    'Default: the parsed document {frontmatter, body}, body keyed by the canonical English headings in snake_case; every `line` is the line in the file on disk.',
    'raw: true returns the frontmatter-stripped body verbatim (line 1 = first line after the closing `---` and the blank lines after it).',
    'With raw, offset (1-based, default 1) and limit (line count, default to the end) window the body lines; offset past the end or limit ≤ 0 return "". numbered: true prefixes each returned line with its absolute body line number as `<n>: ` (strip it before reusing the text).',
    'offset, limit and numbered without raw: true are invalid arguments.',
    "A document that fails to parse returns its ParseFailureResult (never raw text) with `content`, the file's text, to repair it (check the repair with check_content); its error is byte-identical to the list_sysrs row and to docgate lint.",
    'language (default en) selects the variant docs/sysrs/<language>/; a parsed variant uses the canonical English keys, a raw variant read returns its translated text.',
    'Ids and language are checked before any file is read. structuredContent is {result: document | string | ParseFailureResult}.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    properties: {
      id: { type: 'string', description: 'Frontmatter id: lowercase canonical UUID, e.g. 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c.' },
      raw: { type: 'boolean', default: false, description: 'Return the frontmatter-stripped body text verbatim instead of the parsed document.' },
      offset: { type: 'integer', description: 'raw only: first body line to return, 1-based (default 1).' },
      limit: { type: 'integer', description: 'raw only: number of body lines to return (default: through the end).' },
      numbered: { type: 'boolean', description: 'raw only: prefix each returned line with `<n>: `, its absolute body line number.' },
      language: languageInput,
    },
    required: ['id'],
    additionalProperties: false,
  },
  outputSchema: sysrsResultSchema,
  async handler(args, ctx) {
    // Argument rules first: nothing below reads a content file until they pass.
    const id = checkSysrsId(args.id);
    const raw = args.raw === true;
    if (!raw) {
      const window = (['offset', 'limit', 'numbered'] as const).filter((k) => args[k] !== undefined);
      if (window.length > 0) {
        throw new ToolError(
          `${window.join(', ')} ${window.length === 1 ? 'needs' : 'need'} raw: true (they window the raw body text); add raw: true or drop ${window.join(', ')}.`,
        );
      }
    }
    const lang = checkLanguage(args.language, ctx);

    const entry = (await ctx.repo.load('sysrs')).find((e) => e.ref.lang === lang && e.analysis.id === id);
    if (!entry) {
      const where = lang === null ? '' : ` in language '${lang}'`;
      throw new ToolError(`no System Requirements Specification found with id '${id}'${where}`);
    }
    const { doc, failure } = outcome<SysrsDoc>(entry, ctx);
    if (failure) return resultOutput(failureAnswer(failure, entry, ctx, id));
    if (raw) {
      const text = windowLines(doc.rawBody, { offset: args.offset, limit: args.limit, numbered: args.numbered === true });
      return resultOutput(text, text);
    }
    return resultOutput(withWarnings({ frontmatter: doc.frontmatter, body: doc.body }, entry));
  },
});
