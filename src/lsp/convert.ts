/**
 * docgate's findings as the editor sees them (docs/editors.md): a rule's finding becomes an LSP
 * diagnostic with lint's message byte for byte, the rule id as `code`, its section of docs/rules.md as
 * `codeDescription`, and lint's 1-based line:column as a 0-based position (docgate's columns already
 * count UTF-16 code units, the protocol's default). A configuration problem (`<file>:<line>:<column>
 * <problem>`) becomes a diagnostic on that file.
 */
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { RULES_DOC_URL } from '../io/version.js';
import type { Diagnostic } from '../model/types.js';
import { ruleHelpUri } from '../report/sarif.js';

export const SOURCE = 'docgate';

const ERROR = 1;
const WARNING = 2;

/** The editor's diagnostic of a finding; `lineLength(line)` (0-based) ends a finding without an end at the end of its line. */
export function toLsp(d: Diagnostic, lineLength: (line: number) => number): LspDiagnostic {
  const start = { line: d.line - 1, character: d.column - 1 };
  // A finding without an end marks the rest of its line (as markdownlint's editor extension does).
  const end =
    d.endLine !== undefined && d.endColumn !== undefined
      ? { line: d.endLine - 1, character: d.endColumn - 1 }
      : { line: start.line, character: Math.max(start.character, lineLength(start.line)) };
  const href = ruleHelpUri(d.rule, RULES_DOC_URL);
  return {
    range: { start, end },
    severity: d.severity === 'warning' ? WARNING : ERROR,
    code: d.rule,
    ...(href !== undefined ? { codeDescription: { href } } : {}),
    source: SOURCE,
    message: d.message,
  };
}

/** A problem of the configuration or a rule file: the file it names (as written), and the diagnostic there. */
export interface ConfigProblem {
  file: string | null;
  diagnostic: LspDiagnostic;
}

/** The problems of a ConfigError's message: one line each, `<file>:<line>:<column> <problem>` where it has a position. */
export function configProblems(message: string): ConfigProblem[] {
  return message.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    const m = /^(.+?):(\d+):(\d+) (.*)$/.exec(line);
    const at = m ? { line: Number(m[2]) - 1, character: Number(m[3]) - 1 } : { line: 0, character: 0 };
    return [{ file: m ? m[1]! : null, diagnostic: { range: { start: at, end: at }, severity: ERROR, source: SOURCE, message: m ? m[4]! : line } }];
  });
}
