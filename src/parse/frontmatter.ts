/**
 * Splits a `---` fenced YAML frontmatter block off a markdown file. We split the fences ourselves
 * (docs/decisions.md: no gray-matter) so that line numbers of both parts stay those of the file on disk.
 */
export interface FrontmatterSplit {
  /** True when the first line is a `---` fence. */
  present: boolean;
  /** True when an opening fence has no closing `---` line. */
  unterminated: boolean;
  /** YAML text between the fences ('' when absent). Line 1 of it is file line `yamlStartLine`. */
  yaml: string;
  yamlStartLine: number;
  /** Everything after the closing fence line (the whole text when there is no frontmatter). */
  body: string;
  /** Number of file lines before `body` starts: body line n is file line `bodyLineOffset + n`. */
  bodyLineOffset: number;
}

const FENCE = /^---[ \t]*\r?$/;

/** Finds the end of the line that starts at `start` (index of '\n' or text length). */
function lineEnd(text: string, start: number): number {
  const nl = text.indexOf('\n', start);
  return nl === -1 ? text.length : nl;
}

export function splitFrontmatter(text: string): FrontmatterSplit {
  const firstEnd = lineEnd(text, 0);
  if (!FENCE.test(text.slice(0, firstEnd))) {
    return { present: false, unterminated: false, yaml: '', yamlStartLine: 1, body: text, bodyLineOffset: 0 };
  }
  let start = firstEnd + 1;
  let line = 2;
  while (start <= text.length && firstEnd < text.length) {
    const end = lineEnd(text, start);
    if (FENCE.test(text.slice(start, end))) {
      return {
        present: true,
        unterminated: false,
        yaml: text.slice(firstEnd + 1, start),
        yamlStartLine: 2,
        body: end >= text.length ? '' : text.slice(end + 1),
        bodyLineOffset: line,
      };
    }
    if (end >= text.length) break;
    start = end + 1;
    line++;
  }
  return {
    present: true,
    unterminated: true,
    yaml: firstEnd < text.length ? text.slice(firstEnd + 1) : '',
    yamlStartLine: 2,
    body: '',
    bodyLineOffset: 0,
  };
}

/** The blank lines directly after a frontmatter: their length in characters, and how many lines they are. */
export function blankLead(body: string): { length: number; lines: number } {
  const lead = /^(?:[ \t]*\r?\n)*/.exec(body)![0];
  let lines = 0;
  for (let i = lead.indexOf('\n'); i !== -1; i = lead.indexOf('\n', i + 1)) lines++;
  return { length: lead.length, lines };
}

/**
 * Where a document's body lines start, as get_sysrs numbers them and update_document splices them
 * (docs/mcp.md, "Body lines"): after the frontmatter (at the start of a text without one) and the blank
 * lines directly after it. `index` is a character index into `text`; `line` the file line of body line 1.
 * Null for an unterminated frontmatter, which has no body.
 */
export function bodyStart(text: string): { index: number; line: number } | null {
  const split = splitFrontmatter(text);
  if (split.unterminated) return null;
  const lead = blankLead(split.body);
  return { index: text.length - split.body.length + lead.length, line: split.bodyLineOffset + 1 + lead.lines };
}
