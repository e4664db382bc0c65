import type { Document, Pair, Scalar, YAMLMap, Node as YamlNode } from 'yaml';
import { FILE_START, LineIndex } from '../model/position.js';
import type { Locator, Pos } from '../model/position.js';
import { readFlatYaml } from './yaml-flat.js';
import type { FlatEntry, FlatString, FlatValue } from './yaml-flat.js';
import { record, withoutPrototypes } from '../model/records.js';
import { yamlLibrary } from './yaml-library.js';

/** Aliases beyond this count are refused: an alias bomb expands exponentially (docs/reliability.md). */
export const MAX_ALIAS_COUNT = 100;

/**
 * Frontmatter YAML longer than this (in characters) is refused unparsed. Real frontmatter is a few
 * hundred bytes; the `yaml` package needs tens of seconds for a megabyte of pathological YAML (thousands of
 * errors or keys), which would stall a commit, and the MCP server's event loop.
 */
export const MAX_YAML_LENGTH = 64 * 1024;

/**
 * Collections nested deeper than this are refused before the YAML is composed. The `yaml` package
 * composes recursively: nested a few hundred levels it runs out of stack at a depth that depends on the
 * caller's stack, so the same file would get different diagnostics in different places (docs/reliability.md, "Limits").
 */
export const MAX_DEPTH = 100;

/** Every nesting level needs one of `[`, `{`, `-`, `?`, `:`: fewer of them than the limit cannot nest too deep. */
function mayNestDeeperThan(text: string, limit: number): boolean {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b || c === 0x2d || c === 0x3f || c === 0x3a) && ++n >= limit) return true;
  }
  return false;
}

interface CstNode {
  type: string;
  offset: number;
  items?: { key?: CstNode | null; value?: CstNode | null }[];
  value?: CstNode | null;
}

/** Offset of the first collection nested deeper than `limit`, from the concrete syntax tree (walked without recursion). */
function tooDeepAt(text: string, limit: number): number | null {
  for (const token of new (yamlLibrary().Parser)().parse(text) as Iterable<CstNode>) {
    if (token.type !== 'document' || !token.value) continue;
    const stack: { node: CstNode; depth: number }[] = [{ node: token.value, depth: 0 }];
    while (stack.length > 0) {
      const { node, depth } = stack.pop()!;
      if (node.type !== 'block-map' && node.type !== 'block-seq' && node.type !== 'flow-collection') continue;
      if (depth >= limit) return node.offset;
      for (const item of node.items ?? []) {
        if (item.key) stack.push({ node: item.key, depth: depth + 1 });
        if (item.value) stack.push({ node: item.value, depth: depth + 1 });
      }
    }
  }
  return null;
}

/**
 * What reading the YAML found wrong, at its position on disk. Parsing finds; the rules that report
 * these (yaml-syntax, duplicate-key, yaml-alias, frontmatter-not-mapping, yaml-unquoted-timestamp,
 * file-size) write the messages.
 */
export type YamlIssue =
  | { type: 'too-long'; at: Pos; length: number; max: number }
  | { type: 'too-deep'; at: Pos; max: number }
  /** A syntax error of the `yaml` package: the first line of its message. */
  | { type: 'syntax'; at: Pos; detail: string }
  /** The package gave up (`parse`: an exception while parsing, `read`: while turning nodes into data). */
  | { type: 'unreadable'; at: Pos; stage: 'parse' | 'read'; detail: string }
  | { type: 'duplicate-key'; at: Pos }
  /** The YAML is not a mapping: `what` names it (`a sequence`, the scalar `x`). */
  | { type: 'not-mapping'; at: Pos; what: { sequence: true } | { scalar: unknown } | { other: true } }
  /** `end`: where the plain scalar ends (its quoted form replaces it). */
  | { type: 'unquoted-timestamp'; at: Pos; end: Pos; value: string }
  | { type: 'alias-bomb'; at: Pos; max: number };

export interface YamlFrontmatter {
  /** The mapping as plain data, or undefined when it could not be built. */
  data: Record<string, unknown> | undefined;
  issues: YamlIssue[];
  locator: Locator;
}

/** A plain scalar a YAML 1.1 reader (PyYAML, js-yaml 3, gray-matter) would turn into a date-time. */
const YAML11_TIMESTAMP = /^\d{4}-\d\d?-\d\d?(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?$/;

/**
 * `DOCGATE_YAML=library` reads every frontmatter with the `yaml` package, never the flat fast path: the
 * differential test compares the two paths' json reports (test/yaml-flat.test.ts).
 */
const libraryOnly = process.env.DOCGATE_YAML === 'library';

/**
 * Parses frontmatter YAML (the text between the fences) with the `yaml` package: YAML 1.2 core schema,
 * so `2024-01-05` stays a string; unique keys; alias expansion capped. `firstLine` is the file line of
 * the YAML's line 1, so every position is a position on disk. A flat mapping of strings, the common
 * case, is read by the fast path of yaml-flat.ts to the same result; `fast: false` leaves every text
 * to the package (the differential test).
 */
export function parseYamlFrontmatter(yamlText: string, firstLine: number, fast = !libraryOnly): YamlFrontmatter {
  // Our own line index, not the package's LineCounter: the LineCounter misses the line breaks inside a
  // multi-line plain scalar that ends in an error, which put positions past the end of their line.
  const lines = new LineIndex(yamlText);
  const toPos = (offset: number): Pos => {
    // An error at the end of input (an unclosed flow collection) is shown on the last YAML line, not the fence.
    const at = Math.max(0, Math.min(offset >= yamlText.length && yamlText.endsWith('\n') ? yamlText.length - 1 : offset, yamlText.length));
    const p = lines.pos(at);
    return { line: firstLine + p.line - 1, column: p.column };
  };
  const issues: YamlIssue[] = [];
  let root: YamlNode | null = null;
  const locator: Locator = {
    value: (path) => nodeAt(root, path, 'value', toPos),
    key: (path) => nodeAt(root, path, 'key', toPos),
  };
  if (yamlText.length > MAX_YAML_LENGTH) {
    issues.push({ type: 'too-long', at: { line: firstLine, column: 1 }, length: yamlText.length, max: MAX_YAML_LENGTH });
    return { data: undefined, issues, locator };
  }
  const flat = fast ? readFlatYaml(yamlText) : null;
  if (flat !== null) return fromFlat(flat, toPos);
  try {
    const deep = mayNestDeeperThan(yamlText, MAX_DEPTH) ? tooDeepAt(yamlText, MAX_DEPTH) : null;
    if (deep !== null) {
      issues.push({ type: 'too-deep', at: toPos(deep), max: MAX_DEPTH });
      return { data: undefined, issues, locator };
    }
    const { parseDocument, isMap, isSeq, isScalar } = yamlLibrary();
    const doc = parseDocument(yamlText, {
      prettyErrors: false,
      // Duplicate keys are found below in one pass: the package compares each key with every earlier one (n²).
      uniqueKeys: false,
      strict: true,
      version: '1.2',
      schema: 'core',
    });
    for (const err of doc.errors) {
      const at = toPos(err.pos[0]);
      if (err.code === 'DUPLICATE_KEY') issues.push({ type: 'duplicate-key', at });
      else issues.push({ type: 'syntax', at, detail: err.message.split('\n')[0]!.replace(/:$/, '') });
    }
    const walked = walkNodes(doc);
    for (const offset of walked.duplicateKeys) issues.push({ type: 'duplicate-key', at: toPos(offset) });
    if (issues.length > 0) return { data: undefined, issues: dedupe(issues), locator };
    root = doc.contents as YamlNode | null;
    if (root !== null && !isMap(root)) {
      const what = isSeq(root) ? { sequence: true as const } : isScalar(root) ? { scalar: root.value } : { other: true as const };
      issues.push({ type: 'not-mapping', at: toPos(root.range?.[0] ?? 0), what });
      return { data: undefined, issues, locator };
    }
    for (const node of walked.plainTimestamps)
      issues.push({
        type: 'unquoted-timestamp',
        at: toPos(node.range?.[0] ?? 0),
        end: toPos(node.range?.[1] ?? node.range?.[0] ?? 0),
        value: String(node.value),
      });
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (/alias/i.test(msg)) issues.push({ type: 'alias-bomb', at: firstAliasPos(doc, toPos), max: MAX_ALIAS_COUNT });
      else issues.push({ type: 'unreadable', at: FILE_START, stage: 'read', detail: msg.split('\n')[0]! });
      return { data: undefined, issues, locator };
    }
    return { data: withoutPrototypes((data ?? {}) as Record<string, unknown>), issues, locator };
  } catch (e) {
    // Deep nesting can overflow the stack inside the parser; that is a defect of the file, not a crash.
    const detail = e instanceof RangeError ? 'nesting too deep' : e instanceof Error ? e.message.split('\n')[0]! : String(e);
    issues.push({ type: 'unreadable', at: { line: firstLine, column: 1 }, stage: 'parse', detail });
    return { data: undefined, issues, locator };
  }
}

/**
 * The result the package gives what the fast path read (test/yaml-flat.test.ts holds them equal): the
 * data in key order, a finding per plain value a YAML 1.1 reader would take for a date-time (in document
 * order), and the positions `nodeAt` finds — walking the same path through mappings and lists, a value's
 * or key's start where it stops (a mapping starts at its first key, a list at its first `-`).
 */
function fromFlat(entries: FlatEntry[], toPos: (offset: number) => Pos): YamlFrontmatter {
  const issues: YamlIssue[] = [];
  const data = flatData(entries, issues, toPos);
  return { data, issues, locator: { value: (path) => flatAt(entries, path, 'value', toPos), key: (path) => flatAt(entries, path, 'key', toPos) } };
}

function flatData(entries: readonly FlatEntry[], issues: YamlIssue[], toPos: (offset: number) => Pos): Record<string, unknown> {
  const data = record<unknown>();
  for (const e of entries) {
    if (e.t === 'string') {
      data[e.key] = e.value;
      if (e.plain && YAML11_TIMESTAMP.test(e.value)) issues.push(timestampAt(e, toPos));
    } else if (e.t === 'map') data[e.key] = flatData(e.entries, issues, toPos);
    else {
      for (const item of e.items) if (item.plain && YAML11_TIMESTAMP.test(item.value)) issues.push(timestampAt(item, toPos));
      data[e.key] = e.items.map((item) => item.value);
    }
  }
  return data;
}

function timestampAt(v: FlatString, toPos: (offset: number) => Pos): YamlIssue {
  return { type: 'unquoted-timestamp', at: toPos(v.at), end: toPos(v.end), value: v.value };
}

/** `nodeAt` over what the fast path read. */
function flatAt(entries: readonly FlatEntry[], path: readonly string[], want: 'key' | 'value', toPos: (offset: number) => Pos): Pos {
  if (path.length === 0) return FILE_START;
  let node: FlatValue | null = null; // null: the root mapping
  let key: number | null = null;
  for (const seg of path) {
    if (node === null || node.t === 'map') {
      // A few keys, each once: a search, not a table.
      const e: FlatEntry | undefined = (node === null ? entries : node.entries).find((x) => x.key === seg);
      if (e === undefined) break;
      key = e.keyAt;
      node = e;
    } else if (node.t === 'seq') {
      const item: FlatString | undefined = node.items[Number(seg)];
      if (item === undefined) break;
      key = item.at;
      node = item;
    } else break;
  }
  return toPos(want === 'key' && key !== null ? key : node === null ? entries[0]!.keyAt : node.at);
}

function dedupe(list: YamlIssue[]): YamlIssue[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const k = `${d.at.line}:${d.at.column}:${d.type}:${d.type === 'syntax' ? d.detail : ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * One walk over the composed nodes (iterative: depth is bounded before composing, but no recursion is
 * needed): where each repeated key of every mapping starts — the second and later occurrences, with the
 * package's own notion of equal keys (scalars with the same value; NaN never equals NaN), in linear time —
 * and every plain scalar that YAML 1.1 readers would take for a date-time.
 */
function walkNodes(doc: Document): { duplicateKeys: number[]; plainTimestamps: Scalar[] } {
  const { isMap, isPair, isScalar, isSeq } = yamlLibrary();
  const duplicateKeys: number[] = [];
  const plainTimestamps: Scalar[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isScalar(node)) {
      if (node.type === 'PLAIN' && typeof node.value === 'string' && YAML11_TIMESTAMP.test(node.value)) plainTimestamps.push(node);
    } else if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          const value = pair.key.value;
          if (!(typeof value === 'number' && Number.isNaN(value))) {
            if (seen.has(value)) duplicateKeys.push(pair.key.range?.[0] ?? 0);
            else seen.add(value);
          }
        }
        stack.push(pair.value, pair.key);
      }
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    } else if (isPair(node)) {
      stack.push(node.value, node.key); // a pair inside a flow sequence: `[a: b]`
    }
  }
  // Reported in document order, as the package's visitor would.
  plainTimestamps.sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0));
  return { duplicateKeys: duplicateKeys.sort((a, b) => a - b), plainTimestamps };
}

function firstAliasPos(doc: Document, toPos: (o: number) => Pos): Pos {
  const { visit } = yamlLibrary();
  let pos: Pos = FILE_START;
  visit(doc, {
    Alias(_k, node) {
      pos = toPos(node.range?.[0] ?? 0);
      return visit.BREAK;
    },
  });
  return pos;
}

const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();

/**
 * The pairs of a mapping by key text (first occurrence wins), built once per mapping: looking keys up one
 * by one made a frontmatter of n unknown keys cost n² (16,000 keys took minutes).
 */
function pairsOf(map: YAMLMap): Map<string, Pair> {
  let index = pairIndex.get(map);
  if (index === undefined) {
    const { isPair, isScalar } = yamlLibrary();
    index = new Map();
    for (const p of map.items) {
      if (isPair(p) && isScalar(p.key)) {
        const k = String(p.key.value);
        if (!index.has(k)) index.set(k, p);
      }
    }
    pairIndex.set(map, index);
  }
  return index;
}

/** Walks a data path through mappings and sequences; stops at the deepest node that exists. */
function nodeAt(root: YamlNode | null, path: readonly string[], want: 'key' | 'value', toPos: (o: number) => Pos): Pos {
  // The root mapping is the frontmatter as a whole: report it at the opening fence.
  if (root === null || path.length === 0) return FILE_START;
  const { isMap, isSeq } = yamlLibrary();
  let node: unknown = root;
  let keyNode: unknown = null;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = pairsOf(node).get(seg);
      if (!pair) break;
      keyNode = pair.key;
      node = pair.value ?? pair.key;
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)];
      if (item === undefined) break;
      keyNode = item;
      node = item;
    } else break;
  }
  const target = want === 'key' && keyNode !== null ? keyNode : node;
  const range = (target as { range?: [number, number, number] }).range;
  return range ? toPos(range[0]) : path.length === 0 ? FILE_START : toPos(0);
}
