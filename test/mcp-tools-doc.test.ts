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
