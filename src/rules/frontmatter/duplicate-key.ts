import { defineRule } from '../../engine/rule.js';

/** A key given twice: in YAML frontmatter, or a field of the POWER line format. */
export const duplicateKey = defineRule({
  id: 'duplicate-key',
  description: 'A key must appear only once',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\ndescription: Ship it\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\nname: Ship\n---\n\n# Deploy\n',
        expected: ['3:1 Unexpected duplicate key, expected each key once'],
      },
      {
        path: 'templates/power/readme.txt',
        text: 'framework: POWER\nwork: Read the code.\nwork: Again.\n',
        expected: ['3:1 Unexpected duplicate field `work` (first on line 2), expected each field once'],
      },
    ],
  },
  frontmatter(fm, report) {
    for (const i of fm.issues) if (i.type === 'duplicate-key') report(i.at, 'duplicate key', 'each key once');
  },
  fields(f, report) {
    for (const d of f.duplicates) report(d.keyPos, `duplicate field \`${d.key}\` (first on line ${d.firstLine})`, 'each field once');
  },
});
