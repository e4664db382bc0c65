/**
 * The prompt `repair {path}` (docs/mcp-tools.md): one message giving an agent a document as it is on disk, its
 * diagnostics as lint reports them, and the rules they cite, with the loop to follow (check_content
 * until valid; then the write is the agent's, or update_document's where the server allows writes).
 */
import { documentText } from '../lint/document-text.js';
import { escapeHidden } from '../model/hidden-unicode.js';
import type { Repository } from '../lint/repository.js';
import { allResults } from '../lint/tally.js';
import { documentAt, notDiscovered } from './document-args.js';
import { ToolError } from './tool.js';
import { RULE_URI_PREFIX } from './rule-resources.js';

export const REPAIR_PROMPT = {
  name: 'repair',
  title: 'Repair a document',
  description:
    'Repair one document of the repository: its text, its diagnostics and the rules they cite, and how to check a repair with check_content before writing it.',
  arguments: [{ name: 'path', description: 'Root-relative path of the document, e.g. processes/deploy.md', required: true }],
};

/** A fence longer than any run of tildes in the text, so the document cannot close it. */
function fence(text: string): string {
  const longest = Math.max(3, ...[...text.matchAll(/~+/g)].map((m) => m[0].length));
  return '~'.repeat(longest + 1);
}

/**
 * The prompt's one user message; a path that is no document is a ToolError (answered as invalid params).
 * Made over the server's live repository (documents unchanged are not analyzed again).
 */
export async function repairPrompt(repo: Repository, path: string, writes = false): Promise<string> {
  const project = repo.project();
  const ref = documentAt(path, project);
  const run = await repo.lint([path]);
  // The document discovery finds at the path: none where git ignores the file; and the text of one
  // that is no readable file (a link to a file git ignores) is never read.
  const found = run.documents?.find((d) => d.ref.path === path);
  if (!found) throw new ToolError(notDiscovered(ref, project));
  const result = allResults(run).find((r) => r.path === path) ?? null;
  // Hidden characters are shown as visible escapes: the agent sees what a reviewer would not.
  const onDisk = documentText(found.ref, project);
  const text = onDisk === null ? null : escapeHidden(onDisk);
  const cited = [...new Set(result?.diagnostics.map((d) => d.rule) ?? [])].sort();
  // Fixable here: a rule with a fix for one of this document's diagnostics (what check_content applies),
  // not a rule that can fix some values elsewhere (invalid-value fixes only some).
  const fixedHere = new Set(result?.diagnostics.filter((d) => d.fix !== undefined).map((d) => d.rule) ?? []);
  const rules = cited.map((id) => {
    const e = project.rules.get(id);
    return `- \`${id}\`: ${e?.rule.description ?? '(a rule of another version of docgate)'}${fixedHere.has(id) ? ' (fixable: check_content returns the fixed text as fixed_content)' : ''}. More: ${RULE_URI_PREFIX}${id}`;
  });
  const f = text === null ? '' : fence(text);
  return [
    `Repair the ${ref.kind} document \`${path}\` of this docgate repository.`,
    '',
    result === null
      ? 'docgate lint finds nothing wrong with it.'
      : `docgate lint reports (\`line:column message [rule]\`, positions in the file as it is on disk):`,
    ...(result === null ? [] : ['', result.error]),
    ...(rules.length > 0 ? ['', 'The rules they cite:', ...rules] : []),
    '',
    text === null
      ? 'Its text cannot be shown (it is not UTF-8 text, or cannot be read).'
      : `The document as it is on disk${text !== onDisk ? ' (its hidden characters written as visible escapes such as `\\u{202E}`)' : ''}:\n\n${f}\n${text}${text.endsWith('\n') ? '' : '\n'}${f}`,
    '',
    `Write the whole corrected text, keeping its meaning and changing only what the diagnostics ask. Check it with the tool check_content {"path": "${path}", "content": <the text>} until it answers {"valid": true}; when it answers fixed_content, that text already holds the mechanical fixes. ${
      writes
        ? `Once it is valid, write it with the tool update_document {"kind": "${ref.kind}", "path": "${path}", "content": <the text>}: it checks the text again and writes it only if it is valid.`
        : 'The docgate server never writes files: write the file yourself once it is valid.'
    }`,
  ].join('\n');
}
