/**
 * The registry: the only list of docgate's kinds. Everything that lists kinds or rules (docs, SARIF,
 * the configuration's rule ids, the hook's globs, JUnit suites, MCP enums) reads it from here.
 */
import type { AnyKind } from '../engine/kind.js';
import { Layout } from '../io/layout.js';
import type { Kind } from '../model/types.js';
import type { RuleMeta } from '../engine/rule.js';
import { frameworkKind } from './framework/kind.js';
import { processKind } from './process/kind.js';
import { sysrsKind } from './sysrs/kind.js';
import { templateKind } from './template/kind.js';

export const BUILTIN_KINDS: readonly AnyKind[] = [templateKind, frameworkKind, processKind, sysrsKind];

const byName = new Map(BUILTIN_KINDS.map((k) => [k.name, k]));

export function builtinKind(name: string): AnyKind | undefined {
  return byName.get(name);
}

/** One rule of the registry with the kinds it applies to (shared rules apply to several). */
export interface RuleEntry {
  rule: RuleMeta;
  kinds: string[];
  /** A rule across the documents of a kind. */
  crossFile: boolean;
}

/** Every rule of the given kinds by id, in id order. */
export function rulesOf(kinds: readonly AnyKind[] = BUILTIN_KINDS): Map<string, RuleEntry> {
  const out = new Map<string, RuleEntry>();
  const add = (rule: RuleMeta, kind: string, crossFile: boolean): void => {
    const e = out.get(rule.id);
    if (!e) out.set(rule.id, { rule, kinds: [kind], crossFile });
    else if (e.rule !== rule) throw new Error(`two rules share the id ${rule.id}`);
    else if (!e.kinds.includes(kind)) e.kinds.push(kind);
  };
  for (const k of kinds) {
    for (const r of k.rules) add(r, k.name, false);
    for (const r of k.crossFile) add(r, k.name, true);
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The include globs of the given kinds, each language variant's folder glob after its own. */
export function includeGlobs(kinds: readonly AnyKind[] = BUILTIN_KINDS): string[] {
  const globs: string[] = [];
  for (const k of kinds) {
    for (const g of k.include) {
      globs.push(g);
      if (k.variants) {
        const slash = g.lastIndexOf('/');
        globs.push(`${g.slice(0, slash)}/*${g.slice(slash)}`);
      }
    }
  }
  return globs;
}

/**
 * One glob for every document of the given kinds, language variants included, for lint-staged's
 * configuration (package.json; `npm run docs` writes it, and a test compares).
 */
export function documentsGlob(kinds: readonly AnyKind[] = BUILTIN_KINDS): string {
  const globs = includeGlobs(kinds);
  return globs.length === 1 ? globs[0]! : `{${globs.join(',')}}`;
}

let defaultLayout: Layout | undefined;

/** The built-in layout: every kind where the registry puts it, nothing ignored. */
export function builtinLayout(): Layout {
  return (defaultLayout ??= new Layout(BUILTIN_KINDS.map((k) => ({ kind: k.name as Kind, include: k.include, variants: k.variants }))));
}

/** The kind (and language) of a root-relative path in the built-in layout. */
export function classify(path: string): { kind: Kind; lang: string | null } | null {
  return builtinLayout().classify(path);
}
