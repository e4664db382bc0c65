import type { SysrsDoc } from '../../../kinds/sysrs/parse.js';
import { analyzeBytes } from '../../../lint/analyze.js';
import { sysrsKind } from '../../../kinds/sysrs/kind.js';
import { resultOf } from '../../../model/result.js';
import { languageInput, sysrsResultSchema } from '../../schemas.js';
import { checkLanguage } from './args.js';
import { defineTool, resultOutput } from '../../tool.js';

export const parseSysrs = defineTool<{ content: string; language?: string }>({
  name: 'parse_sysrs',
  title: 'Parse SysRS text',
  description:
    'Parse the text of a System Requirements Specification (frontmatter included) without touching the disk: the parsed document {frontmatter, body}, or a ParseFailureResult with path "" whose error is byte-identical to what docgate lint reports for a file with the same text (cross-file rules such as duplicate ids need the repository: use validate). language (default en) parses through that language\'s heading table. structuredContent is {result: document | ParseFailureResult}.',
  inputSchema: {
    type: 'object',
    properties: {
      content: { type: 'string', maxLength: sysrsKind.maxBytes, description: 'The whole document text, frontmatter included.' },
      language: languageInput,
    },
    required: ['content'],
    additionalProperties: false,
  },
  outputSchema: sysrsResultSchema,
  pure: true,
  handler({ content, language }, ctx) {
    const lang = checkLanguage(language, ctx);
    const analysis = analyzeBytes({ path: '', kind: 'sysrs', lang }, Buffer.from(content, 'utf8'), ctx.project());
    const failure = resultOf(analysis);
    if (failure || !analysis.doc) return resultOutput(failure);
    const doc = analysis.doc as SysrsDoc;
    return resultOutput({ frontmatter: doc.frontmatter, body: doc.body });
  },
});
