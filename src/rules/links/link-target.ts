import { quote } from '../../model/position.js';
import type { Pos } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

/** What the rule reads of a parse: its broken links, found when first asked (a kind with the rule off never parses links). */
export interface LinkLayer {
  brokenLinks?(): readonly { dest: string; at: Pos; image: boolean; why: 'outside' | 'missing' }[];
}

const others = {
  'docgate.config.yaml': 'kinds:\n  skill:\n    include: ["skills/*/SKILL.md"]\n    id: folder\n    frontmatter: none\n    rules: {link-target: error}\n',
  'skills/pdf/reference.md': '# Reference\n',
};

export const linkTarget = defineRule<LinkLayer>({
  id: 'link-target',
  description:
    'Relative links and images in the body resolve to a file or folder inside the root (off unless configured: `rules: {link-target: error}` under a kind or at the top level)',
  offByDefault: true,
  looksOutside: true,
  examples: {
    ok: [{ path: 'skills/pdf/SKILL.md', text: 'See [the reference](reference.md#forms), [the site](https://example.com) and [below](#usage).\n', others }],
    notOk: [
      {
        path: 'skills/pdf/SKILL.md',
        text: 'See [the reference](references/forms.md) and ![the chart](../../../chart.png).\n',
        others,
        expected: [
          '1:21 Unexpected link to `references/forms.md`, which names no file or folder, expected a path to a file or folder inside the root, relative to the document',
          '1:59 Unexpected image `../../../chart.png`, which climbs out of the root, expected a path to a file or folder inside the root, relative to the document',
        ],
      },
    ],
  },
  document(p, report) {
    const links = p.brokenLinks?.();
    if (links === undefined) return;
    for (const l of links) {
      const what = `${l.image ? 'image' : 'link to'} ${quote(l.dest)}, which ${l.why === 'outside' ? 'climbs out of the root' : 'names no file or folder'}`;
      report(l.at, what, 'a path to a file or folder inside the root, relative to the document');
    }
  },
});
