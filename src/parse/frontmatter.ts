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
