import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument, visit } from 'yaml';
import type { Node as YamlNode } from 'yaml';
import { FILE_START, diag, quote } from './position.js';
import type { Locator, Pos } from './position.js';
import type { Diagnostic } from './types.js';

/** Aliases beyond this count are refused: an alias bomb expands exponentially (SPEC §5). */
export const MAX_ALIAS_COUNT = 100;

export interface YamlFrontmatter {
  /** The mapping as plain data, or undefined when it could not be built. */
  data: Record<string, unknown> | undefined;
  diagnostics: Diagnostic[];
  locator: Locator;
}

/** A plain scalar a YAML 1.1 reader (PyYAML, js-yaml 3, gray-matter) would turn into a date-time. */
const YAML11_TIMESTAMP = /^\d{4}-\d\d?-\d\d?(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?$/;

function errorRule(code: string): string {
  return code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'yaml-syntax';
}

/**
 * Parses frontmatter YAML (the text between the fences) with the `yaml` package: YAML 1.2 core schema,
 * so `2024-01-05` stays a string; unique keys; alias expansion capped. `firstLine` is the file line of
 * the YAML's line 1, so every position is a position on disk.
 */
export function parseYamlFrontmatter(yamlText: string, firstLine: number): YamlFrontmatter {
  const lc = new LineCounter();
  const toPos = (offset: number): Pos => {
    // An error at the end of input (an unclosed flow collection) is shown on the last YAML line, not the fence.
    const at = offset >= yamlText.length && yamlText.endsWith('\n') ? yamlText.length - 1 : offset;
    const p = lc.linePos(at);
    return { line: firstLine + p.line - 1, column: p.col };
  };
  const diagnostics: Diagnostic[] = [];
  let root: YamlNode | null = null;
  const locator: Locator = {
    value: (path) => nodeAt(root, path, 'value', toPos),
    key: (path) => nodeAt(root, path, 'key', toPos),
  };
  try {
    const doc = parseDocument(yamlText, {
      lineCounter: lc,
      prettyErrors: false,
      uniqueKeys: true,
      strict: true,
      version: '1.2',
      schema: 'core',
    });
    for (const err of doc.errors) {
      const pos = toPos(err.pos[0]);
      const message =
        err.code === 'DUPLICATE_KEY'
          ? `Unexpected duplicate key, expected each key once`
          : `Unexpected YAML syntax: ${err.message.split('\n')[0]!.replace(/:$/, '')}`;
      diagnostics.push(diag(pos, errorRule(err.code), message));
    }
    if (diagnostics.length > 0) return { data: undefined, diagnostics: dedupe(diagnostics), locator };
    root = doc.contents as YamlNode | null;
    if (root !== null && !isMap(root)) {
      const what = isSeq(root) ? 'a sequence' : isScalar(root) ? `the scalar ${quote(root.value)}` : 'a non-mapping value';
      diagnostics.push(diag(toPos(root.range?.[0] ?? 0), 'frontmatter-not-mapping', `Unexpected ${what} as frontmatter, expected a mapping of keys to values`));
      return { data: undefined, diagnostics, locator };
    }
    visit(doc, {
      Scalar(_key, node) {
        if (node.type === 'PLAIN' && typeof node.value === 'string' && YAML11_TIMESTAMP.test(node.value)) {
          diagnostics.push(
            diag(toPos(node.range?.[0] ?? 0), 'yaml-unquoted-timestamp', `Unexpected unquoted timestamp ${quote(node.value)}, expected it quoted ('${node.value}') so every YAML reader keeps it a string`),
          );
        }
      },
    });
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      const alias = /alias/i.test(msg);
      diagnostics.push(
        diag(
          alias ? firstAliasPos(doc, toPos) : FILE_START,
          alias ? 'yaml-alias' : 'yaml-syntax',
          alias
            ? `Unexpected alias expansion beyond ${MAX_ALIAS_COUNT} nodes, expected frontmatter without an alias bomb`
            : `Unexpected YAML that cannot be read: ${msg.split('\n')[0]}`,
        ),
      );
      return { data: undefined, diagnostics, locator };
    }
    return { data: (data ?? {}) as Record<string, unknown>, diagnostics, locator };
  } catch (e) {
    // Deep nesting can overflow the stack inside the parser; that is a defect of the file, not a crash.
    const msg = e instanceof RangeError ? 'nesting too deep' : e instanceof Error ? e.message.split('\n')[0]! : String(e);
    diagnostics.push(diag({ line: firstLine, column: 1 }, 'yaml-syntax', `Unexpected YAML that cannot be parsed: ${msg}`));
    return { data: undefined, diagnostics, locator };
  }
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const k = `${d.line}:${d.column}:${d.rule}:${d.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function firstAliasPos(doc: ReturnType<typeof parseDocument>, toPos: (o: number) => Pos): Pos {
  let pos: Pos = FILE_START;
  visit(doc, {
    Alias(_k, node) {
      pos = toPos(node.range?.[0] ?? 0);
      return visit.BREAK;
    },
  });
  return pos;
}

/** Walks a data path through mappings and sequences; stops at the deepest node that exists. */
function nodeAt(root: YamlNode | null, path: readonly string[], want: 'key' | 'value', toPos: (o: number) => Pos): Pos {
  // The root mapping is the frontmatter as a whole: report it at the opening fence.
  if (root === null || path.length === 0) return FILE_START;
  let node: unknown = root;
  let keyNode: unknown = null;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === seg);
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
