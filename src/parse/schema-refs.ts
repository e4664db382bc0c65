/**
 * Following `$ref`s through JSON Schemas without ajv: a root schema that extends a bundled one by `$ref`
 * still has the bundled properties (their defaults, their order, their names in messages), and a
 * `$ref` that leads back to where it started without going into the data is refused before it can
 * recurse for ever at validation.
 */
import { record } from '../model/records.js';

/** A JSON Schema node; `true`/`false` are schemas too. */
export type SchemaNode = { [k: string]: unknown } | boolean;

/** A schema document where a `$ref` lands, and the node in it. */
interface Place {
  doc: SchemaNode;
  node: SchemaNode;
  /** JSON pointer of `node` in `doc`, for messages (`#`, `#/$defs/x`). */
  pointer: string;
}

/** Finds the document of an absolute `$id` (docgate's bundled schemas, or the root schema's own). */
export type Lookup = (id: string) => SchemaNode | undefined;

function isNode(v: unknown): v is { [k: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The node at a JSON pointer fragment (`/a/b`), or undefined. */
function atPointer(doc: SchemaNode, fragment: string): SchemaNode | undefined {
  if (fragment === '') return doc;
  if (!fragment.startsWith('/')) return undefined; // an `$anchor`: not followed
  let v: unknown = doc;
  for (const raw of fragment.slice(1).split('/')) {
    const s = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) v = v[Number(s)];
    else if (isNode(v)) v = v[s];
    else return undefined;
  }
  return isNode(v) || typeof v === 'boolean' ? v : undefined;
}

/** Where `$ref` in a node of `doc` lands: `#…` in the same document, `<id>#…` in the document with that `$id`. */
export function resolveRef(ref: string, doc: SchemaNode, lookup: Lookup): Place | undefined {
  const hash = ref.indexOf('#');
  const base = hash === -1 ? ref : ref.slice(0, hash);
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  const target = base === '' ? doc : lookup(base);
  if (target === undefined) return undefined;
  const node = atPointer(target, fragment);
  return node === undefined ? undefined : { doc: target, node, pointer: `#${fragment}` };
}

/** Every node of `doc` with `$dynamicAnchor: name`, with its pointer (nested documents with an `$id` of their own included). */
function dynamicAnchors(doc: SchemaNode, name: string): Place[] {
  const out: Place[] = [];
  const walk = (v: unknown, pointer: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${pointer}/${i}`));
    else if (isNode(v)) {
      if (v['$dynamicAnchor'] === name) out.push({ doc, node: v, pointer: pointer === '' ? '#' : `#${pointer}` });
      for (const [k, x] of Object.entries(v)) walk(x, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(doc, '');
  return out;
}

/**
 * Where a `$dynamicRef` may land. A JSON pointer lands as a `$ref` does; a `#name` lands on a
 * `$dynamicAnchor` of that name in the document it names or, through the dynamic scope, in the
 * outermost document: every such anchor is a place it may go, so a loop through any of them is refused.
 */
function dynamicTargets(ref: string, doc: SchemaNode, root: SchemaNode, lookup: Lookup): (Place | undefined)[] {
  const hash = ref.indexOf('#');
  const fragment = hash === -1 ? '' : ref.slice(hash + 1);
  if (fragment === '' || fragment.startsWith('/')) return [resolveRef(ref, doc, lookup)];
  const base = ref.slice(0, hash);
  const target = base === '' ? doc : lookup(base);
  const name = decodeURIComponent(fragment);
  return [...(target === undefined ? [] : dynamicAnchors(target, name)), ...(root === target ? [] : dynamicAnchors(root, name))];
}

/** Keywords whose subschemas apply to the same value (not to a part of it). */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_MANY = ['allOf', 'anyOf', 'oneOf'] as const;

/** The subschemas applied to the same value as `node`, each with its pointer; `$ref` and `allOf` only when `sure`. */
function inPlace(node: SchemaNode, pointer: string, sure: boolean): { node: SchemaNode; pointer: string }[] {
  if (!isNode(node)) return [];
  const out: { node: SchemaNode; pointer: string }[] = [];
  const many = sure ? (['allOf'] as const) : IN_PLACE_MANY;
  for (const k of many) {
    const list = node[k];
    if (Array.isArray(list)) list.forEach((s, i) => (isNode(s) || typeof s === 'boolean') && out.push({ node: s, pointer: `${pointer}/${k}/${i}` }));
  }
  if (!sure) {
    for (const k of IN_PLACE_ONE) {
      const s = node[k];
      if (isNode(s) || typeof s === 'boolean') out.push({ node: s, pointer: `${pointer}/${k}` });
    }
    const deps = node['dependentSchemas'];
    if (isNode(deps))
      for (const [k, s] of Object.entries(deps)) if (isNode(s) || typeof s === 'boolean') out.push({ node: s, pointer: `${pointer}/dependentSchemas/${k}` });
  }
  return out;
}

/**
 * The properties that apply to a value of `node`, in order: those of what it `$ref`s and its `allOf`
 * first (the bundled schema a root schema extends), then its own. A key named more than once gets the
 * keywords of every subschema, the later winning (an added `maxLength` keeps the bundled `default`);
 * `false` anywhere wins.
 */
export function propertiesOf(node: SchemaNode, doc: SchemaNode, lookup: Lookup): Record<string, SchemaNode> {
  const out = record<SchemaNode>();
  collect(node, doc, lookup, true, new Set(), (props) => {
    for (const [k, s] of Object.entries(props)) {
      const was = out[k];
      if (s === false || was === false) out[k] = false;
      else if (isNode(s)) out[k] = isNode(was) ? Object.assign(record<unknown>(), was, s) : s;
      else if (was === undefined) out[k] = s as SchemaNode;
    }
  });
  return out;
}

/**
 * The names and name patterns a value of `node` may have where `unevaluatedProperties` is false: the
 * properties and patternProperties of every subschema that applies to the value, branches included.
 */
export function evaluatedKeys(node: SchemaNode, doc: SchemaNode, lookup: Lookup): { names: string[]; patterns: string[] } {
  const names = new Set<string>();
  const patterns = new Set<string>();
  collect(node, doc, lookup, false, new Set(), (props, pats) => {
    for (const k of Object.keys(props)) names.add(k);
    for (const p of Object.keys(pats)) patterns.add(p);
  });
  return { names: [...names], patterns: [...patterns] };
}

function collect(
  node: SchemaNode,
  doc: SchemaNode,
  lookup: Lookup,
  sure: boolean,
  seen: Set<SchemaNode>,
  take: (properties: Record<string, unknown>, patterns: Record<string, unknown>) => void,
): void {
  if (!isNode(node) || seen.has(node)) return;
  seen.add(node);
  const ref = node['$ref'];
  if (typeof ref === 'string') {
    const to = resolveRef(ref, doc, lookup);
    if (to) collect(to.node, to.doc, lookup, sure, seen, take);
  }
  for (const sub of inPlace(node, '', sure)) collect(sub.node, doc, lookup, sure, seen, take);
  const properties = node['properties'];
  const patterns = node['patternProperties'];
  take(isNode(properties) ? properties : {}, isNode(patterns) ? patterns : {});
}

/**
 * A `$ref` (or `$dynamicRef`) chain that comes back to a schema already being applied to the same value: validation
 * would recurse without end (ajv compiles it, then overflows the stack on the first document). Such a
 * loop is described (`$ref <ref> at <pointer> leads back to <pointer>`), else null. Recursion through
 * `properties`, `items` and the like goes one level into the data each time and ends with the data.
 */
export function refLoop(root: SchemaNode, lookup: Lookup): string | null {
  const done = new Set<SchemaNode>();
  const onPath = new Map<SchemaNode, string>();
  const visit = (node: SchemaNode, doc: SchemaNode, pointer: string): string | null => {
    if (!isNode(node) || done.has(node)) return null;
    onPath.set(node, pointer);
    for (const keyword of ['$ref', '$dynamicRef'] as const) {
      const ref = node[keyword];
      if (typeof ref !== 'string') continue;
      for (const to of keyword === '$ref' ? [resolveRef(ref, doc, lookup)] : dynamicTargets(ref, doc, root, lookup)) {
        if (!to) continue;
        const back = onPath.get(to.node);
        if (back !== undefined) return `\`${keyword}\` ${ref} at ${pointer}/${keyword} leads back to ${back}`;
        const found = visit(to.node, to.doc, to.doc === doc ? to.pointer : `${ref.split('#')[0]}${to.pointer}`);
        if (found) return found;
      }
    }
    for (const sub of inPlace(node, pointer, false)) {
      const found = visit(sub.node, doc, sub.pointer);
      if (found) return found;
    }
    onPath.delete(node);
    done.add(node);
    return null;
  };
  return visit(root, root, '#');
}
