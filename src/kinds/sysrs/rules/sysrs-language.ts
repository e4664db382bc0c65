import { FILE_START, quote } from '../../../model/position.js';
import { defineRule } from '../../../engine/rule.js';
import { LANGUAGE } from '../parse.js';
import type { SysrsParse } from '../parse.js';

export const sysrsLanguage = defineRule<SysrsParse>({
  id: 'sysrs-language',
  description: 'A SysRS variant folder must be a language with a heading table',
  examples: {
    ok: [
      {
        path: 'docs/sysrs/de/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# Systemanforderungsspezifikation: Auftragsannahme\n',
      },
    ],
    notOk: [
      {
        path: 'docs/sysrs/fr/order-intake.md',
        text: '---\nid: 3f2b8c1e-5d4a-4e2f-9b6c-1a2b3c4d5e6f\n---\n\n# Spécification des exigences système : Commandes\n',
        expected: ['1:1 Unexpected language `fr` without a heading table, expected a language with a heading table: `de`'],
      },
    ],
  },
  document(p, report) {
    const l = p.language;
    if (l === null) return;
    const what = LANGUAGE.test(l.folder)
      ? `language \`${l.folder}\` without a heading table`
      : `folder ${quote(l.folder)} that is not a two-letter language code`;
    const languages = l.available.length > 0 ? l.available.map((x) => `\`${x}\``).join(', ') : 'none (no heading table exists)';
    report(FILE_START, what, `a language with a heading table: ${languages}`);
  },
});
