import { quote } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';

export const yamlUnquotedTimestamp = defineRule({
  id: 'yaml-unquoted-timestamp',
  description: 'Timestamps in frontmatter must be quoted strings',
  fixable: true,
  examples: {
    ok: [{ path: 'processes/deploy.md', text: "---\nname: Deploy\ndescription: '2025-11-02 07:34:29.518Z'\n---\n\n# Deploy\n" }],
    notOk: [
      {
        path: 'processes/deploy.md',
        text: '---\nname: Deploy\ndescription: 2025-11-02 07:34:29.518Z\n---\n\n# Deploy\n',
        output: "---\nname: Deploy\ndescription: '2025-11-02 07:34:29.518Z'\n---\n\n# Deploy\n",
        expected: [
          "3:14 Unexpected unquoted timestamp `2025-11-02 07:34:29.518Z`, expected it quoted ('2025-11-02 07:34:29.518Z') so every YAML reader keeps it a string",
        ],
      },
    ],
  },
  frontmatter(fm, report) {
    for (const i of fm.issues) {
      if (i.type !== 'unquoted-timestamp') continue;
      // Quoting keeps the meaning: YAML 1.2 reads the plain scalar as this very string already.
      const fix = { line: i.at.line, column: i.at.column, endLine: i.end.line, endColumn: i.end.column, text: `'${i.value}'` };
      report(i.at, `unquoted timestamp ${quote(i.value)}`, `it quoted ('${i.value}') so every YAML reader keeps it a string`, { fix });
    }
  },
});
