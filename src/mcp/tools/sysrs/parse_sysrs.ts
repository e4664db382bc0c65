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
  description: [
    'Parse the text of a System Requirements Specification, frontmatter included, without reading or writing any file.',
    'Use check_content instead to check a text for its path against the live repository (cross-file rules such as a duplicate id), and get_sysrs to read a file.',
    'A text that fails answers its ParseFailureResult with path ""; its error is what lint reports for a file of that text, rules across files aside.',
    "language parses through that language's heading table; an unknown language is an invalid argument.",
  ].join('\n'),
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
