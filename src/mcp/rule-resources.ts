/**
 * Every rule as an MCP resource `docgate://rules/<id>` (docs/mcp-tools.md, "Resources"), read from the registry of the root's
 * project (its configured kinds' rules included): what docs/rules.md says, where an agent can read it.
 */
import type { Project } from '../project/project.js';
import type { RuleEntry } from '../kinds/index.js';

export const RULE_URI_PREFIX = 'docgate://rules/';

export interface RuleResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: 'application/json';
}

export function listRuleResources(project: Project): RuleResource[] {
  return [...project.rules.values()].map((e) => ({
    uri: `${RULE_URI_PREFIX}${e.rule.id}`,
    name: e.rule.id,
    title: `docgate rule ${e.rule.id}`,
    description: e.rule.description,
    mimeType: 'application/json',
  }));
}

/** A rule as JSON: what it wants, where it applies, its default severity, whether it is fixable, its examples. */
export function ruleJson(e: RuleEntry): string {
  const r = e.rule;
  return `${JSON.stringify(
    {
      id: r.id,
      description: r.description,
      kinds: e.kinds,
      // The severity it has where no configuration names it, as docs/rules.md shows it.
      severity: r.offByDefault ? 'off' : r.severity,
      fixable: r.fixable,
      crossFile: e.crossFile,
      fileLevel: r.fileLevel,
      examples: r.examples,
    },
    null,
    2,
  )}\n`;
}

/** The text of `docgate://rules/<id>`, or null when the uri names no rule of the project. */
export function readRuleResource(project: Project, uri: string): string | null {
  if (!uri.startsWith(RULE_URI_PREFIX)) return null;
  const entry = project.rules.get(uri.slice(RULE_URI_PREFIX.length));
  return entry ? ruleJson(entry) : null;
}
