/**
 * One file through its kind: decode, parse, run every rule over the layers the parse has. Pure: the
 * bytes (or what stood instead of them) come from the caller, so the lint, the cache, the MCP server
 * and the git index all analyze through here.
 */
import type { Analysis } from '../model/analysis.js';
import type { Pos } from '../model/position.js';
import { CappedDiagnostics, hasError } from '../model/result.js';
import { Suppressions, findDirectives } from '../parse/directives.js';
import type { SeverityOf } from './rule.js';
import type { Diagnostic } from '../model/types.js';
import { decode } from '../parse/file-stage.js';
import type { FileProblem, FileStage } from '../parse/file-stage.js';
import type { AnyKind, FileText, KindData, Layers } from './kind.js';
import { unexpected } from './rule.js';
import type { Fix, Report, Rule } from './rule.js';

/** Where a document sits: its root-relative path and, for a variant, its language folder. */
export interface DocPlace {
  path: string;
  lang: string | null;
}

/** Every rule an error (no configuration, and every caller that has none). */
const ALL_ERRORS: SeverityOf = () => 'error';

/** Where a rule's report puts what it finds: the file at hand. Null `kept`: no file (the reporter is free). */
interface Sink {
  kept: CappedDiagnostics | null;
  warning: boolean;
  suppressions: Suppressions | null;
}

/** A rule's report and where it writes. */
interface Reporter {
  rule: Rule<unknown>;
  report: Report;
  sink: Sink;
}

function reporter(rule: Rule<unknown>): Reporter {
  const { id, fixable } = rule;
  const sink: Sink = { kept: null, warning: false, suppressions: null };
  const report = (at: Pos, found: string, expected: string | null, more?: { end?: Pos; fix?: Fix }): void => {
    const kept = sink.kept!;
    // A directive's suppression is checked first: what it suppresses takes no place among the kept.
    if (sink.suppressions?.suppresses(at.line, id)) return;
    if (!kept.wants(at.line, at.column)) return;
    const d: Diagnostic = { line: at.line, column: at.column, rule: id, message: unexpected(found, expected) };
    if (sink.warning) d.severity = 'warning';
    if (more?.end) {
      d.endLine = more.end.line;
      d.endColumn = more.end.column;
    }
    // Only a rule that declares itself fixable hands out fixes (its examples test each one).
    if (fixable && more?.fix) d.fix = more.fix;
    kept.add(d);
  };
  report.wants = (at: Pos): boolean => sink.kept!.wants(at.line, at.column);
  return { rule, report, sink };
}

/**
 * The reporters of a rule list, made once: a file points each at itself while its rules run (they run
 * synchronously), instead of making two closures per rule per file (a SysRS has some forty rules).
 */
const reporters = new WeakMap<readonly Rule<unknown>[], Reporter[]>();

function reportersOf(rules: readonly Rule<unknown>[]): Reporter[] {
  let list = reporters.get(rules);
  if (list === undefined) reporters.set(rules, (list = rules.map(reporter)));
  return list;
}

/**
 * The severity of each rule of a list, for the last list and severity function asked: without overrides
 * a project gives every document the same function, so a kind's levels are found once, not per rule per
 * document. One entry: bounded.
 */
let lastLevels: { rules: readonly Rule<unknown>[]; severity: SeverityOf; levels: ReturnType<SeverityOf>[] } | null = null;

function levelsOf(rules: readonly Rule<unknown>[], severity: SeverityOf): readonly ReturnType<SeverityOf>[] {
  if (lastLevels !== null && lastLevels.rules === rules && lastLevels.severity === severity) return lastLevels.levels;
  const levels = rules.map((r) => severity(r.id));
  lastLevels = { rules, severity, levels };
  return levels;
}

/**
 * Runs the rules over a file's layers: every hook of every rule, for the layers present. Returns the
 * diagnostics a result can show (the first MAX_DIAGNOSTICS by position, sorted, without repeats): a file
 * with 300,000 findings never holds 300,000 messages.
 */
export function runRules(
  rules: readonly Rule<unknown>[],
  stage: FileStage,
  parsed: Layers | null,
  severity: SeverityOf = ALL_ERRORS,
  suppressions: Suppressions | null = null,
): Diagnostic[] {
  const kept = new CappedDiagnostics();
  const reporters = reportersOf(rules);
  const levels = levelsOf(rules, severity);
  for (let k = 0; k < reporters.length; k++) {
    const shared = reporters[k]!;
    const { rule } = shared;
    // A rule the configuration turns off is not run at all.
    const level = levels[k]!;
    if (level === 'off') continue;
    // A reporter in use (rules run inside a rule's hook, which none does today) is not taken from under it.
    const r = shared.sink.kept === null ? shared : reporter(rule);
    const { report, sink } = r;
    sink.kept = kept;
    sink.warning = level === 'warning';
    // Rules about the file as a whole are never disabled inline: the directive itself could not be read.
    sink.suppressions = rule.fileLevel ? null : suppressions;
    try {
      rule.file?.(stage, report);
      if (parsed === null) continue;
      if (parsed.frontmatter && rule.frontmatter) rule.frontmatter(parsed.frontmatter, report);
      if (parsed.fields && rule.fields) rule.fields(parsed.fields, report);
      if (parsed.schema && rule.schema) rule.schema(parsed.schema, report);
      if (parsed.outline && rule.outline) rule.outline(parsed.outline, report);
      rule.document?.(parsed, report);
    } finally {
      sink.kept = null;
      sink.suppressions = null;
    }
  }
  return kept.list();
}

/** An analysis that stops at the file itself (not read, or not decoded): only the file rules speak. */
export function fileFailure(kind: AnyKind, data: KindData, place: DocPlace, problem: FileProblem | null, stage?: FileStage, severity?: SeverityOf): Analysis {
  const s: FileStage = stage ?? { path: place.path, problem, decoding: null, fileName: data.fileName };
  return {
    path: place.path,
    kind: kind.name as Analysis['kind'],
    id: kind.fallbackId(place.path),
    diagnostics: runRules(kind.rules, s, null, severity),
    facts: kind.emptyFacts(place.path, place.lang),
    doc: null,
  };
}

/**
 * The parsed document of bytes whose analysis passed (the MCP server keeps rows, not documents, and
 * parses a document again when a get tool asks for it): decode, parse, the kind's document; no rule
 * runs. Null when the bytes do not decode or the kind makes no document of them.
 */
export function parseDocument(kind: AnyKind, data: KindData, place: DocPlace, bytes: Uint8Array): unknown {
  const { text } = decode(bytes);
  if (text === null) return null;
  const file: FileText = { path: place.path, lang: place.lang, text, size: bytes.length };
  return kind.doc(kind.parse(file, data, true), file);
}

/**
 * Analyzes one document given as bytes. `full: false` when only its facts are needed (a file not
 * selected whose facts feed rules across files): no rule runs, and the kind may parse less.
 * `keepDoc: false` when nothing reads the parsed document (a lint drops it): it is not made.
 */
export function analyzeDocument(
  kind: AnyKind,
  data: KindData,
  place: DocPlace,
  bytes: Uint8Array,
  full = true,
  severity?: SeverityOf,
  keepDoc = true,
): Analysis {
  const { decoding, text } = decode(bytes);
  if (text === null) return fileFailure(kind, data, place, null, { path: place.path, problem: null, decoding, fileName: data.fileName }, severity);
  const stage: FileStage = { path: place.path, problem: null, decoding, fileName: data.fileName, text, bytes };
  const file: FileText = { path: place.path, lang: place.lang, text, size: bytes.length };
  const parsed = kind.parse(file, data, full);
  const directives = full ? findDirectives(text, kind.directives) : [];
  const suppressions = directives.length > 0 ? new Suppressions(directives) : null;
  const diagnostics = full ? runRules(kind.rules, stage, parsed, severity, suppressions) : [];
  return {
    ...(suppressions ? { directives: { list: directives, used: suppressions.used } } : {}),
    path: place.path,
    kind: kind.name as Analysis['kind'],
    id: kind.id(parsed, file),
    diagnostics,
    facts: kind.facts(parsed, file),
    // A document with warnings only is served (docs/formats.md, "Severities and warnings"): it fails only with an error.
    doc: full && keepDoc && !hasError(diagnostics) ? kind.doc(parsed, file) : null,
  };
}
