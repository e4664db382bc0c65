/**
 * `docgate init` (docs/configuration.md, "docgate init"): looks at a repository through every preset at
 * once, names the formats it finds with their counts, and writes the `docgate.config.yaml` that enables
 * the presets that fit (never over a configuration the root has; `--dry-run` writes nothing). The
 * detection is the lint's own discovery: a project loaded with a configuration of every preset.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discover } from '../io/layout.js';
import { createNew } from '../io/safe-fs.js';
import { ConfigError } from '../model/errors.js';
import { CONFIG_CANDIDATES } from '../project/config.js';
import { presetNames, presetText } from '../project/presets.js';
import { loadProject } from '../project/project.js';
import type { Project } from '../project/project.js';
import { yamlLibrary } from '../parse/yaml-library.js';

/** The documents of each kind a project finds, in its kinds' order. */
export interface Found {
  kind: string;
  count: number;
  /** Root-relative paths (for the dialect hints). */
  paths: string[];
}

/** What `docgate init` decided. */
export interface InitPlan {
  found: Found[];
  presets: string[];
  /** Why each preset was chosen, in the order of `presets`. */
  reasons: Map<string, string>;
  text: string;
}

/**
 * A client whose preset only widens a kind another preset defines (claude-code and copilot widen
 * `skill`) is chosen also when such documents sit in that client's own folder (`.claude/skills/…`).
 */
const CLIENT_FOLDERS: Readonly<Record<string, string>> = { 'claude-code': '.claude/', copilot: '.github/' };

/** The kinds a preset defines itself (those it gives a `frontmatter`), read from its data file. */
function kindsDefinedBy(preset: string): string[] {
  const data = yamlLibrary().parse(presetText(preset)) as { kinds?: Record<string, { frontmatter?: unknown }> } | null;
  return Object.entries(data?.kinds ?? {})
    .filter(([, k]) => k !== null && typeof k === 'object' && k.frontmatter !== undefined)
    .map(([name]) => name);
}

/** The documents of every kind a project has, found as a lint finds them. */
function findAll(project: Project): Found[] {
  return project.kinds.map((kind) => {
    const refs = discover(project.root, new Set([kind.name]), undefined, project.layout);
    return { kind: kind.name, count: refs.length, paths: refs.map((r) => r.path) };
  });
}

/** Runs `use` with the path of a configuration of `text`, kept in a folder of its own outside the root and removed after. */
export async function withTempConfig<T>(text: string, use: (file: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'docgate-init-'));
  try {
    const file = join(dir, 'docgate.config.yaml');
    createNew(file, Buffer.from(text, 'utf8'), 0o600);
    return await use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Loads the root through a configuration of every preset. */
function detect(root: string): Promise<Found[]> {
  return withTempConfig(`presets: [${presetNames().join(', ')}]\n`, (file) => findAll(loadProject(root, { config: file })));
}

/** The configuration text for the chosen presets. */
function configText(presets: readonly string[]): string {
  const lines = [
    '# docgate configuration, written by `docgate init` (every key: docs/configuration.md).',
    '# Presets are the formats docgate knows (docs/formats.md, "Presets"); move a kind with',
    '# `kinds.<name>.include`, change a severity with `rules` or `kinds.<name>.rules`.',
  ];
  lines.push(presets.length > 0 ? `presets: [${presets.join(', ')}]` : '# No format of a preset was found: the built-in kinds apply.');
  return `${lines.join('\n')}\n`;
}

/** What init would write for `root`. */
export async function planInit(root: string): Promise<InitPlan> {
  const found = await detect(root);
  const count = new Map(found.map((f) => [f.kind, f]));
  const presets: string[] = [];
  const reasons = new Map<string, string>();
  for (const preset of presetNames()) {
    const own = kindsDefinedBy(preset).filter((k) => (count.get(k)?.count ?? 0) > 0);
    if (own.length > 0) {
      presets.push(preset);
      reasons.set(preset, own.map((k) => `${count.get(k)!.count} ${k}`).join(', '));
      continue;
    }
    const folder = CLIENT_FOLDERS[preset];
    if (folder === undefined) continue;
    const inFolder = found.flatMap((f) => f.paths.filter((p) => p.startsWith(folder) || p.includes(`/${folder}`)).map(() => f.kind));
    if (inFolder.length > 0) {
      presets.push(preset);
      reasons.set(preset, `${inFolder.length} ${[...new Set(inFolder)].join(', ')} under ${folder}`);
    }
  }
  return { found, presets, reasons, text: configText(presets) };
}

/** The lines init prints about what it found and chose. */
export function describePlan(root: string, plan: InitPlan): string {
  const out = [`docgate init: looked at ${root}`];
  const found = plan.found.filter((f) => f.count > 0);
  if (found.length === 0) out.push('  found no document of any kind docgate knows');
  for (const f of found) out.push(`  ${String(f.count).padStart(6)} ${f.kind}`);
  for (const p of plan.presets) out.push(`  preset ${p}: ${plan.reasons.get(p)}`);
  return `${out.join('\n')}\n`;
}

/** The configuration a root already has, if any (init never writes over it). */
export function existingConfig(root: string): string | undefined {
  return CONFIG_CANDIDATES.find((n) => existsSync(join(root, n)));
}

/** Writes the configuration at the root; refused when a file (or a link) of that name appeared meanwhile. */
export function writeConfig(root: string, text: string): string {
  const file = join(root, 'docgate.config.yaml');
  try {
    createNew(file, Buffer.from(text, 'utf8'), 0o644);
  } catch (e) {
    throw new ConfigError(`cannot write ${file}: ${(e as Error).message}`);
  }
  return file;
}
