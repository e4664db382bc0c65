/**
 * The registry: the only list of docgate's kinds. Everything that lists kinds or rules (docs, SARIF,
 * the configuration's rule ids, the hook's globs, JUnit suites, MCP enums) reads it from here.
 */
import type { AnyKind, KindData } from '../engine/kind.js';
import type { RuleSet } from '../core/schemas.js';
import { frameworkKind } from './framework/kind.js';
import { processKind } from './process/kind.js';
import { templateKind } from './template/kind.js';

export const BUILTIN_KINDS: readonly AnyKind[] = [templateKind, frameworkKind, processKind];

const byName = new Map(BUILTIN_KINDS.map((k) => [k.name, k]));

export function builtinKind(name: string): AnyKind | undefined {
  return byName.get(name);
}

const NO_TABLES: ReadonlyMap<string, never> = new Map<string, never>();
const dataCache = new WeakMap<RuleSet, Map<string, KindData>>();

/** The rule data of a kind for a root's rule set. */
export function kindData(kind: AnyKind, rules: RuleSet): KindData {
  let perSet = dataCache.get(rules);
  if (!perSet) dataCache.set(rules, (perSet = new Map()));
  let data = perSet.get(kind.name);
  if (!data) {
    const schemaFile = kind.ruleFiles.schema;
    const schema = schemaFile ? (Object.values(rules).find((v) => typeof v === 'object' && v !== null && 'file' in v && String((v as { file: string }).file).endsWith(schemaFile)) as KindData['schema']) ?? null : null;
    data = {
      schema,
      outline: kind.ruleFiles.outline ? rules.outline : null,
      headingTables: kind.ruleFiles.headingTables ? rules.headingTables : NO_TABLES,
      fileName: kind.fileName ? { pattern: new RegExp(kind.fileName.pattern), expected: kind.fileName.expected } : null,
    };
    perSet.set(kind.name, data);
  }
  return data;
}
