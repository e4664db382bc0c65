/**
 * `docgate lint --print-config PATH` (ESLint's flag, docs/configuration.md): the configuration in effect for one
 * path, as JSON: its kind, whether it is ignored, the configuration file, the rule files its kind reads
 * and every rule of its kind with its effective level (the rule's default, `rules`, then `overrides`).
 * With presets, also the presets in effect (in layer order) and the kind's settings as the layers merge
 * them (docs/formats.md, "Presets"): what a user would write to get the same kind without the presets.
 */
import { join } from 'node:path';
import { Layout, existsAsDirectory, gitIgnoresPath } from '../io/layout.js';
import { inGitFolder } from '../io/glob.js';
import { ruleFilesUsed } from './rule-data.js';
import type { RuleFilesUsed } from './rule-data.js';
import type { KindConfig } from './config.js';
import type { Project } from './project.js';

export interface EffectiveConfig {
  /** Root-relative, `/` separators. */
  path: string;
  /** The kind the path belongs to (also when it is ignored), or null. */
  kind: string | null;
  ignored: boolean;
  /** The configuration file in effect (root-relative inside the root), or null for none. */
  config: string | null;
  ruleFiles: RuleFilesUsed;
  /** Every rule of the kind, by id: `off`, `warn` or `error` (the configuration's words). */
  rules: Record<string, 'off' | 'warn' | 'error'>;
  /** With presets only (a configuration without keeps its output as before): the presets in effect, in layer order. */
  presets?: string[];
  /** With presets only: `kinds.<kind>` merged over every layer, when a layer configures the path's kind. */
  kindConfig?: KindConfig;
}

export function effectiveConfig(project: Project, path: string): EffectiveConfig {
  // The kind as the layout would give it without `ignores`: an ignored document still shows its kind.
  const unignored = new Layout(project.kinds.map((k) => ({ kind: k.name, include: k.include, variants: k.variants })));
  const kind = unignored.classify(path)?.kind ?? null;
  const def = kind === null ? undefined : project.kind(kind);
  const rules: EffectiveConfig['rules'] = {};
  if (def) {
    const severity = project.severityFor(path);
    const ids = [...def.rules, ...def.crossFile].map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const id of ids) {
      const level = severity(id);
      rules[id] = level === 'warning' ? 'warn' : level;
    }
  }
  const merged = kind === null ? undefined : project.config.kinds[kind];
  const layered = project.config.presets.length > 0 ? { presets: project.config.presets, ...(merged ? { kindConfig: merged } : {}) } : {};
  return {
    path,
    kind,
    // Ignored as lint and the MCP server ignore it: by `ignores`, in a `.git` folder, or by git.
    ignored: project.layout.isIgnored(path) || inGitFolder(path) || gitIgnoresPath(project.root, path, existsAsDirectory(join(project.root, path))),
    config: project.config.file,
    ruleFiles: def ? ruleFilesUsed(project.root, def.ruleFiles, project.config.schemas) : {},
    rules,
    ...layered,
  };
}
