/**
 * The new text of an update or an edit, from the current one (docs/mcp.md, "Validated writes"): pure
 * functions, each throwing ToolError with what to change when its arguments do not fit the text.
 */
import { bodyStart } from '../../../parse/frontmatter.js';
import { bodyLines } from '../../text.js';
import { ToolError } from '../../tool.js';

/**
 * SpecMgr's splice of body lines: `limit` lines from body line `offset` (1-based, as get_sysrs's
 * `numbered` output shows them) replaced by the lines of `content`; no `limit`: through the last line;
 * `limit: 0` inserts before `offset`; `offset` = last line + 1 appends. The file keeps its final newline
 * (or its lack of one), and in a file whose lines end with CRLF each line given gets one.
 */
export function spliceBody(text: string, offset: number, limit: number | undefined, content: string): string {
  const start = bodyStart(text);
  if (start === null) throw new ToolError('its frontmatter has no closing `---` line, so it has no body lines: replace the whole text (no offset) instead.');
  const head = text.slice(0, start.index);
  const body = text.slice(start.index);
  const lines = bodyLines(body);
  const n = lines.length;
  if (offset < 1 || offset > n + 1)
    throw new ToolError(`offset ${offset} is out of range: the body has ${n} line${n === 1 ? '' : 's'}, so offset is 1..${n + 1} (${n + 1} appends).`);
  const count = limit ?? n - offset + 1;
  if (count < 0 || offset - 1 + count > n)
    throw new ToolError(
      `limit ${count} is out of range: from body line ${offset} there ${n - offset + 1 === 1 ? 'is 1 line' : `are ${n - offset + 1} lines`} to replace (0 inserts).`,
    );
  const crlf = /^[^\n]*\r\n/.test(text);
  const given = bodyLines(content).map((l) => (crlf && !l.endsWith('\r') ? `${l}\r` : l));
  const before = lines.slice(0, offset - 1);
  // A body whose last line has no line ending keeps ending without one.
  const unterminated = n > 0 && !body.endsWith('\n');
  if (unterminated && crlf && offset === n + 1 && given.length > 0) before[n - 1] = `${before[n - 1]}\r`;
  const next = [...before, ...given, ...lines.slice(offset - 1 + count)];
  if (next.length === 0) return head;
  if (unterminated && next[next.length - 1]!.endsWith('\r')) next[next.length - 1] = next[next.length - 1]!.slice(0, -1);
  // A closing fence at the very end of the file ends its line before the first body line.
  const fence = head !== '' && !head.endsWith('\n') ? (crlf ? '\r\n' : '\n') : '';
  return `${head}${fence}${next.join('\n')}${unterminated ? '' : '\n'}`;
}

/** The occurrences of `needle` in `text`, not overlapping, from the start. */
function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) count++;
  return count;
}

/** A byte-exact replacement: `old` must occur once, or `all` replaces every occurrence. */
export function replaceText(text: string, old: string, replacement: string, all: boolean): string {
  const count = occurrences(text, old);
  if (count === 0)
    throw new ToolError(
      'old_str was not found: it must match the file byte for byte (spaces, tabs and line endings included, and no `<n>: ` prefixes of numbered output).',
    );
  if (count > 1 && !all)
    throw new ToolError(`old_str occurs ${count} times: add text around it to make it unique, or pass replace_all: true to replace all ${count}.`);
  return text.split(old).join(replacement);
}

const DECODER = new TextDecoder('utf-8', { fatal: true });

/** A document's text for an edit or a splice: its bytes as UTF-8, or an error (its whole text can still be replaced). */
export function textOf(bytes: Buffer): string {
  try {
    return DECODER.decode(bytes);
  } catch {
    throw new ToolError('the file is not valid UTF-8 text, so it cannot be edited in place: replace its whole text with update_document (no offset).');
  }
}
