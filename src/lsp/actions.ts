/**
 * Code actions (docs/editors.md): a quick fix for each finding that has a fix (the fix lint --fix would
 * apply, alone), `source.fixAll.docgate` (every fix, in passes, exactly as `--fix`), and "disable <rule>
 * for this line" (the directive in the document's syntax). Each is a WorkspaceEdit for the client to
 * apply: the server never writes a file.
 */
import type { CodeAction, Range, TextEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileRef } from '../io/layout.js';
import { fixDocument, fixEdit } from '../lint/fix.js';
import { maxBytes } from '../lint/analyze.js';
import type { Diagnostic } from '../model/types.js';
import { disablingDirective } from '../parse/directives.js';
import type { Project } from '../project/project.js';
import { toLsp } from './convert.js';

export const FIX_ALL = 'source.fixAll.docgate';

/** Whether a code action of `kind` is asked for by `only` (a kind asks for its sub-kinds: `source.fixAll` → `source.fixAll.docgate`). */
function wanted(only: readonly string[] | undefined, kind: string): boolean {
  return only === undefined || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

function meets(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']): boolean => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** The code actions for a range of a document whose findings are `found`. */
export function codeActions(
  project: Project,
  ref: FileRef,
  doc: TextDocument,
  found: readonly Diagnostic[],
  range: Range,
  only: readonly string[] | undefined,
): CodeAction[] {
  const text = doc.getText();
  const uri = doc.uri;
  const lineLength = (line: number): number => lineText(doc, line).length;
  const edit = (edits: TextEdit[]) => ({ changes: { [uri]: edits } });
  const actions: CodeAction[] = [];
  const here = found.map((d) => ({ d, lsp: toLsp(d, lineLength) })).filter((x) => meets(x.lsp.range, range));
  if (wanted(only, 'quickfix')) {
    for (const { d, lsp } of here) {
      if (!d.fix) continue;
      const e = fixEdit(text, d.fix);
      if (e === null) continue;
      actions.push({
        title: `Fix this ${d.rule} problem`,
        kind: 'quickfix',
        diagnostics: [lsp],
        isPreferred: true,
        edit: edit([{ range: { start: doc.positionAt(e.start), end: doc.positionAt(e.end) }, newText: e.text }]),
      });
    }
    const syntax = project.kind(ref.kind)?.directives ?? 'none';
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const done = new Set<string>();
    for (const { d, lsp } of here) {
      // A rule about the file as a whole is never disabled inline.
      if (project.rules.get(d.rule)?.rule.fileLevel === true || done.has(`${d.line}\0${d.rule}`)) continue;
      const directive = disablingDirective(text, syntax, d.line, d.rule);
      if (directive === null) continue;
      done.add(`${d.line}\0${d.rule}`);
      const at = { line: directive.before - 1, character: 0 };
      actions.push({
        title: `Disable ${d.rule} for this line`,
        kind: 'quickfix',
        diagnostics: [lsp],
        edit: edit([{ range: { start: at, end: at }, newText: `${directive.text}${eol}` }]),
      });
    }
  }
  if (wanted(only, FIX_ALL) && found.some((d) => d.fix !== undefined)) {
    const bytes = Buffer.from(text, 'utf8');
    const fixed = bytes.length <= maxBytes(project, ref.kind) ? fixDocument(ref, bytes, project) : null;
    if (fixed !== null) {
      const whole = { start: { line: 0, character: 0 }, end: doc.positionAt(text.length) };
      actions.push({ title: 'Fix all docgate problems', kind: FIX_ALL, edit: edit([{ range: whole, newText: fixed.toString('utf8') }]) });
    }
  }
  return actions;
}

/** A line of a document without its line break (0-based). */
export function lineText(doc: TextDocument, line: number): string {
  return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
}
