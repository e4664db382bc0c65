import { quote } from '../../model/position.js';
import { defineRule } from '../../engine/rule.js';
import { singleQuoted } from '../../parse/lenient-yaml.js';

const others = {
  'docgate.config.yaml': 'kinds:\n  cursor-rule:\n    include: [".cursor/rules/*.mdc"]\n    frontmatter: rule.schema.json\n    lenient: [globs]\n',
  'schemas/rule.schema.json': '{ "type": "object", "properties": { "globs": { "type": "string" } } }\n',
};

export const unquotedValue = defineRule({
  id: 'unquoted-value',
  description: 'A field the kind reads leniently (`lenient`) is quoted where YAML would read its plain value otherwise than the client does',
  severity: 'warning',
  fixable: true,
  examples: {
    ok: [{ path: '.cursor/rules/ts.mdc', text: "---\nglobs: '**/*.ts'\n---\n\nUse strict types.\n", others }],
    notOk: [
      {
        path: '.cursor/rules/ts.mdc',
        text: '---\nglobs: **/*.ts\n---\n\nUse strict types.\n',
        others,
        output: "---\nglobs: '**/*.ts'\n---\n\nUse strict types.\n",
        expected: [
          "2:8 Unexpected unquoted value `**/*.ts`, which YAML reads as an alias, expected it quoted ('**/*.ts') so YAML reads the string the client reads",
        ],
      },
    ],
  },
  frontmatter(fm, report) {
    for (const v of fm.lenient ?? []) {
      const quoted = singleQuoted(v.value);
      const fix = { line: v.at.line, column: v.at.column, endLine: v.end.line, endColumn: v.end.column, text: quoted };
      const why = v.why === 'alias' ? 'which YAML reads as an alias' : 'which YAML cannot read';
      report(v.at, `unquoted value ${quote(v.value)}, ${why}`, `it quoted (${quoted}) so YAML reads the string the client reads`, { fix });
    }
  },
});
