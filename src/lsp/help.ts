/**
 * Hover and completion (docs/editors.md), read from the kind's own schema as lint checks it: on a
 * frontmatter key (or a POWER field) its description, type, allowed values and default; on a finding
 * the rule's description and its section of docs/rules.md; completion of the keys a document lacks
 * (required ones first) and of enum and boolean values.
 */
import type { CompletionItem, Hover, Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileRef } from '../io/layout.js';
import { RULES_DOC_URL } from '../io/version.js';
import type { Diagnostic } from '../model/types.js';
import { splitFrontmatter } from '../parse/frontmatter.js';
import type { CompiledSchema } from '../parse/schema-check.js';
import { resolveRef } from '../parse/schema-refs.js';
import type { Project } from '../project/project.js';
import { ruleHelpUri } from '../report/sarif.js';
import { lineText } from './actions.js';
import { toLsp } from './convert.js';

/** A top-level key at the start of a line: `key:` followed by a space or the end. */
const KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?=[ \t]|$)/;

type Node = Record<string, unknown>;

/** Where keys live in a document: its lines (0-based, end exclusive), and its schema. */
interface KeyRegion {
  from: number;
  to: number;
  schema: CompiledSchema;
}

/** The lines holding a document's keys: a POWER template's every line, a markdown file's frontmatter. */
function keyRegion(project: Project, ref: FileRef, text: string): KeyRegion | null {
  const kind = project.kind(ref.kind);
  const schema = kind ? project.data(kind).schema : null;
  if (!kind || schema === null) return null;
  if (kind.directives === 'template') return { from: 0, to: text.split('\n').length, schema };
  const fm = splitFrontmatter(text);
  if (!fm.present) return null;
  const count = fm.yaml === '' ? 0 : fm.yaml.split('\n').length - (fm.yaml.endsWith('\n') ? 1 : 0);
  return { from: fm.yamlStartLine - 1, to: fm.yamlStartLine - 1 + count, schema };
}

/** A property's schema node with what its `$ref` names laid under it. */
function propertyNode(schema: CompiledSchema, key: string): Node | null {
  const node = schema.properties[key];
  if (typeof node !== 'object' || node === null) return null;
  const ref = (node as Node).$ref;
  const target = typeof ref === 'string' ? resolveRef(ref, schema.schema as Node, schema.lookup)?.node : undefined;
  return typeof target === 'object' && target !== null ? { ...(target as Node), ...(node as Node) } : (node as Node);
}

function required(schema: CompiledSchema): Set<string> {
  const r = (schema.schema as Node).required;
  return new Set(Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : []);
}

const json = (v: unknown): string => `\`${JSON.stringify(v)}\``;

/** The schema's words for a key, as markdown. */
function describeKey(schema: CompiledSchema, key: string): string | null {
  const node = propertyNode(schema, key);
  if (node === null) return null;
  const lines = [`**${key}**${required(schema).has(key) ? ' (required)' : ''}${typeof node.description === 'string' ? `: ${node.description}` : ''}`];
  const type = node.type;
  if (type !== undefined) lines.push(`type: ${(Array.isArray(type) ? type : [type]).map((t) => `\`${String(t)}\``).join(' or ')}`);
  if (Array.isArray(node.enum))
    lines.push(
      `allowed: ${node.enum
        .filter((v) => v !== null && v !== '')
        .map(json)
        .join(', ')}`,
    );
  if ('const' in node) lines.push(`allowed: ${json(node.const)}`);
  if ('default' in node) lines.push(`default: ${json(node.default)}`);
  return lines.join('\n\n');
}

/** The key of a line of the region, and whether `character` lies on it. */
function keyAt(line: string, character: number): string | null {
  const m = KEY.exec(line);
  return m && character <= m[1]!.length ? m[1]! : null;
}

export function hover(project: Project, ref: FileRef, doc: TextDocument, found: readonly Diagnostic[], at: Position): Hover | null {
  const parts: string[] = [];
  const lineLength = (line: number): number => lineText(doc, line).length;
  for (const d of found) {
    const { range } = toLsp(d, lineLength);
    const after = (p: Position, q: Position): boolean => p.line > q.line || (p.line === q.line && p.character >= q.character);
    if (!after(at, range.start) || !after(range.end, at)) continue;
    const href = ruleHelpUri(d.rule, RULES_DOC_URL);
    const description = project.rules.get(d.rule)?.rule.description;
    parts.push(`**${d.rule}** (docgate)${description ? `: ${description}` : ''}${href ? `\n\n[${d.rule} in docs/rules.md](${href})` : ''}`);
  }
  const text = doc.getText();
  const region = keyRegion(project, ref, text);
  if (region !== null && at.line >= region.from && at.line < region.to) {
    const key = keyAt(lineText(doc, at.line), at.character);
    const words = key === null ? null : describeKey(region.schema, key);
    if (words !== null) parts.unshift(words);
  }
  if (parts.length === 0) return null;
  return { contents: { kind: 'markdown', value: [...new Set(parts)].join('\n\n---\n\n') } };
}

const PROPERTY = 10;
const VALUE = 12;

export function completion(project: Project, ref: FileRef, doc: TextDocument, at: Position): CompletionItem[] {
  const text = doc.getText();
  const region = keyRegion(project, ref, text);
  if (region === null || at.line < region.from || at.line >= region.to) return [];
  const before = lineText(doc, at.line).slice(0, at.character);
  const schema = region.schema;
  if (/^[A-Za-z0-9_-]*$/.test(before)) {
    const present = new Set<string>();
    for (let l = region.from; l < region.to; l++) {
      if (l === at.line) continue;
      const m = KEY.exec(lineText(doc, l));
      if (m) present.add(m[1]!);
    }
    const needed = required(schema);
    return Object.keys(schema.properties)
      .filter((k) => !present.has(k) && schema.properties[k] !== false)
      .map((key, i) => {
        const node = propertyNode(schema, key);
        return {
          label: key,
          kind: PROPERTY,
          insertText: `${key}: `,
          // Required keys first, each group in the schema's order.
          sortText: `${needed.has(key) ? 0 : 1}${String(i).padStart(4, '0')}`,
          ...(needed.has(key) ? { detail: 'required' } : {}),
          ...(typeof node?.description === 'string' ? { documentation: node.description } : {}),
        };
      });
  }
  const m = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:[ \t]*[^\s]*$/.exec(before);
  const node = m ? propertyNode(schema, m[1]!) : null;
  if (node === null) return [];
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const values: unknown[] = [
    ...(Array.isArray(node.enum) ? node.enum : []),
    ...('const' in node ? [node.const] : []),
    ...(types.includes('boolean') ? [true, false] : []),
  ];
  return [...new Set(values.filter((v) => v !== null && v !== ''))].map((v, i) => ({
    label: String(v),
    kind: VALUE,
    sortText: String(i).padStart(4, '0'),
    ...(v === node.default ? { detail: 'default' } : {}),
  }));
}
