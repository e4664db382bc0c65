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
    'Read one System Requirements Specification by its frontmatter id: the parsed document, or with raw: true its body text verbatim.',
    'Use parse_sysrs instead for text that is not in a file yet, and list_sysrs to find the ids; a row listed with a null id opens with get_document by its path.',
    "Parsed, the body is keyed by the canonical English section names in snake_case in every language, and each item's line is its line in the file on disk.",
    'Raw, line 1 is the first line after the frontmatter and the blank lines that follow it; offset, limit and numbered window and number those lines, and need raw: true.',
    "A document that fails to parse answers its ParseFailureResult (never raw text) with the file's text in content; its error is the list_sysrs row's and lint's.",
    'An unknown id is an error. The id and the language are checked before any file is read.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      id: {
        type: 'string',
        description: 'The frontmatter id, a lowercase canonical UUID such as 7d1f3c2a-9b8e-4f6d-a5c4-3b2a1f0e9d8c (list_sysrs shows them).',
      },
      raw: { type: 'boolean', default: false, description: 'Answer the body text verbatim, without the frontmatter, instead of the parsed document.' },
      offset: { type: 'integer', description: 'raw only: the first body line to return, 1-based (line 1 when absent); past the last line the text is empty.' },
      limit: { type: 'integer', description: 'raw only: how many body lines to return (through the end when absent); 0 or less gives an empty text.' },
      numbered: {
        type: 'boolean',
        description:
          'raw only: prefix each returned line with `<n>: `, its body line number counted from line 1 whatever the offset; strip it before reusing the text.',
      },
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
