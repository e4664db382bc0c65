import { maxBytes } from './analyze.js';
import { utf8Text } from '../parse/file-stage.js';
import { readLimited } from '../io/file-identity.js';
import { realRootOf } from '../io/layout.js';
import type { FileRef } from '../io/layout.js';
import type { Project } from '../project/project.js';

/**
 * A document's text as it is on disk now (a failing get answer carries it, docs/mcp-tools.md, so that an agent
 * can repair it), read through the same checked handle as every read of a document; null when it
 * cannot be read (gone, a folder, a link outside the root, too large) or is not UTF-8, and for an entry
 * discovery found to be no readable file (`problem`: a link into `.git` or to a file git ignores, a
 * name that is not UTF-8), which is never read.
 */
export function documentText(ref: Pick<FileRef, 'abs' | 'path' | 'kind' | 'problem'>, project: Project): string | null {
  if (ref.problem) return null;
  const read = readLimited(ref.abs, maxBytes(project, ref.kind), realRootOf(ref));
  return read.kind === 'bytes' ? utf8Text(read.bytes) : null;
}
