import { defineRule } from '../../engine/rule.js';

export const yamlSyntax = defineRule({
  id: 'yaml-syntax',
  description: 'Frontmatter must be valid YAML',
  examples: {
    ok: [{ path: 'processes/deploy.md', text: '---\nname: Deploy\ndescription: "Ship it: carefully"\n---\n\n# Deploy\n' }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\ndescription: [a, b\n---\n\n# Deploy\n',
        expected: ['3:19 Unexpected YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]'],
      },
    ],
  },
  frontmatter(fm, report) {
    for (const i of fm.issues) {
      // The parser's own words are the finding; nothing more specific can be said of what was meant.
      if (i.type === 'syntax') report(i.at, `YAML syntax: ${i.detail}`, null);
      else if (i.type === 'too-deep') report(i.at, `YAML nested deeper than ${i.max} levels`, `frontmatter nested at most ${i.max} levels deep`);
      else if (i.type === 'unreadable') report(i.at, `YAML that cannot be ${i.stage === 'parse' ? 'parsed' : 'read'}: ${i.detail}`, null);
    }
  },
});
