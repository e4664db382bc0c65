import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registryMcpToolsMarkdown } from '../src/mcp/tools-doc.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { REPAIR_PROMPT } from '../src/mcp/repair-prompt.js';
import { REPO } from './helpers.js';

const doc = () => readFileSync(join(REPO, 'docs', 'mcp-tools.md'), 'utf8');

describe('docs/mcp-tools.md', () => {
  it('is what the tool registry generates (run `npm run docs` after changing a tool)', () => {
    expect(doc()).toBe(registryMcpToolsMarkdown());
  });

  it('has a section for every tool, with its title and each argument, required ones marked', () => {
    const text = doc();
    for (const tool of TOOLS) {
      expect(text).toContain(`## \`${tool.name}\`\n\n**${tool.title}.** `);
      const required = tool.inputSchema.required ?? [];
      for (const arg of Object.keys(tool.inputSchema.properties ?? {}))
        expect(text).toMatch(new RegExp(`\\| \`${arg}\` \\| [^\\n]* \\| ${required.includes(arg) ? 'yes' : 'no'} \\|`));
    }
  });

  it('lists the resources and the repair prompt', () => {
    const text = doc();
    expect(text).toContain('`docgate://schemas/<file>`');
    expect(text).toContain('`docgate://schemas/sysrs-outline.json`');
    expect(text).toContain('`docgate://rules/<id>`');
    expect(text).toContain(`## The \`${REPAIR_PROMPT.name}\` prompt`);
  });
});

describe('docs/mcp-tools.md: tools that take one of several forms of arguments', () => {
  it('says which forms get_document takes, from its input schema, which composes nothing at its top level', () => {
    const get = TOOLS.find((t) => t.name === 'get_document')!;
    expect(get.inputSchema.description).toBe('Either {kind, id} or {path}, not both.');
    expect(doc()).toContain('## `get_document`\n\n');
    expect(doc().split('## `get_document`')[1]!.split('## `validate`')[0]).toContain('### Arguments\n\nEither {kind, id} or {path}, not both.\n\n| argument |');
    // Several clients refuse a tool whose input schema has a top-level anyOf, oneOf or allOf.
    for (const t of TOOLS) for (const k of ['anyOf', 'oneOf', 'allOf', 'not', 'if']) expect(t.inputSchema[k], `${t.name} ${k}`).toBeUndefined();
  });

  it("describes get_document's document answers, not a bare object", () => {
    const section = doc().split('## `get_document`')[1]!.split('## `validate`')[0]!;
    expect(section).not.toContain('{result: object |');
    expect(section).toContain('{kind, id, frontmatter, content, title?, body?, warnings?}');
  });
});
