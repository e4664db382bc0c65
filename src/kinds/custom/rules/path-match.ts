import { quote } from '../../../model/position.js';
import { exampleFiles } from './template.js';
import type { KindRuleTemplate } from './template.js';

const others = exampleFiles('    match: {field: name, equals: folder}\n');

export const pathMatch: KindRuleTemplate = {
  suffix: 'path-match',
  description: 'A field the kind names (`match`) equals the folder name or the file stem, compared after NFKC',
  severity: 'error',
  examples: {
    ok: [{ path: 'skills/pdf/SKILL.md', text: '---\nname: pdf\ndescription: Reads PDF files.\n---\n\nUse it on PDFs.\n', others }],
    notOk: [
      {
        path: 'skills/pdf/SKILL.md',
        text: '---\nname: pdf-tools\ndescription: Reads PDF files.\n---\n\nUse it on PDFs.\n',
        others,
        expected: ['2:7 Unexpected name `pdf-tools` differs from its folder `pdf`, expected equal to the folder name (after NFKC)'],
      },
    ],
  },
  document(p, report) {
    const m = p.mismatch;
    if (m === null) return;
    const where = m.equals === 'folder' ? 'folder' : 'file stem';
    const what = m.equals === 'folder' ? 'the folder name' : 'the file stem';
    report(m.value, `${m.field} ${quote(m.value.value)} differs from its ${where} ${quote(m.other)}`, `equal to ${what} (after NFKC)`);
  },
};
