/**
 * Positions in a JSON rule file (a schema, an outline, a heading table) for configuration errors that
 * point into it: where `JSON.parse` stopped, and where the value or key at a JSON Pointer starts. Only
 * called on the error path, so the file is parsed a second time with the `yaml` package (JSON is YAML
 * 1.2) for its node positions rather than by a JSON parser of our own.
 */
import { LineIndex } from '../model/position.js';
import type { Pos } from '../model/position.js';
import { parseYamlFrontmatter } from './yaml-frontmatter.js';

/** Where `JSON.parse(text)` failed with `error` (Node 20 names an offset; later Nodes a line and column too). */
export function jsonSyntaxPos(text: string, error: unknown): Pos {
  const message = error instanceof Error ? error.message : String(error);
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /at position (\d+)/.exec(message);
  // No offset ("Unexpected end of JSON input"): the text ended too early, so the end is the place.
  const offset = position ? Number(position[1]) : Math.max(0, text.replace(/\s+$/, '').length);
  return new LineIndex(text).pos(Math.min(offset, text.length));
}

/**
 * Where the value at `path` (JSON Pointer segments) starts in `text`, or the key of its member `key`
 * when that key is at fault; the closest existing ancestor when the path does not exist.
 */
export function jsonValuePos(text: string, path: readonly string[], key?: string): Pos {
  const { locator } = parseYamlFrontmatter(text, 1);
  return key === undefined ? locator.value(path) : locator.key([...path, key]);
}
