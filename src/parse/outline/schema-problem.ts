/**
 * What ajv found wrong with outline data (against schemas/outline.schema.json), as one problem in the
 * words the rule-set loader has always used: `sections[1].level is 3, not 2`, `h1Prefix is not a
 * non-empty string`. A property's `description` in the schema says what its value should have been.
 */
import type { ErrorObject } from 'ajv';
import { OutlineDataError, dataPath, pointerOf, pointerSegments } from './data.js';

const descriptionsOf = new WeakMap<object, Map<string, string>>();

/** Every property name of the schema with its description (names are not reused with other meanings). */
function descriptions(schema: object): Map<string, string> {
  let found = descriptionsOf.get(schema);
  if (found !== undefined) return found;
  const out = new Map<string, string>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const properties = (node as Record<string, unknown>)['properties'];
    if (typeof properties === 'object' && properties !== null) {
      for (const [name, sub] of Object.entries(properties)) {
        const description = typeof sub === 'object' && sub !== null ? (sub as Record<string, unknown>)['description'] : undefined;
        if (typeof description === 'string' && !out.has(name)) out.set(name, description);
      }
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(schema);
  descriptionsOf.set(schema, (found = out));
  return found;
}

/**
 * The first problem among ajv's errors (in the order ajv found them, which follows the data), with the
 * pointer of the value at fault (ajv's `instancePath`). ajv's `if` errors only repeat what the branch
 * under them said.
 */
export function outlineProblem(errors: readonly ErrorObject[], schema: object): OutlineDataError {
  const e = errors.find((x) => x.keyword !== 'if') ?? errors[0]!;
  const segments = pointerSegments(e.instancePath);
  const where = (s: readonly string[]): string => (s.length === 0 ? 'the outline' : dataPath(pointerOf(s)));
  const say = (message: string, key?: string): OutlineDataError => new OutlineDataError(message, e.instancePath, key);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return say(
        `${where([...segments, String(params['missingProperty'])])} is not ${descriptions(schema).get(String(params['missingProperty'])) ?? 'present'}`,
      );
    case 'additionalProperties':
      return say(
        `${where([...segments, String(params['additionalProperty'])])} is not allowed (not a field of ${segments.length === 0 ? 'an outline' : 'an outline section'})`,
        String(params['additionalProperty']),
      );
    case 'const':
      return say(`${where(segments)} is ${JSON.stringify(e.data) ?? String(e.data)}, not ${JSON.stringify(params['allowedValue'])}`);
    case 'not':
      return say(`${where(segments)} is not allowed (${String((e.parentSchema as { description?: string } | undefined)?.description ?? 'here')})`);
    case 'type':
      if (params['type'] === 'object') return say(`${where(segments)} is not an object`);
  }
  // Anything else about a value (type, length, pattern, enum, range, an item of a list): what its property should be.
  const property = [...segments];
  while (property.length > 0 && /^\d+$/.test(property[property.length - 1]!)) property.pop();
  const description = property.length > 0 ? descriptions(schema).get(property[property.length - 1]!) : undefined;
  return say(`${where(property)} is not ${description ?? 'valid'}`);
}
