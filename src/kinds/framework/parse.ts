import type { FileText, Layers } from '../../engine/kind.js';
import { baseName } from '../../model/paths.js';

export interface FrameworkParse extends Layers {
  name: string;
  /** The file is empty or blank. */
  empty: boolean;
  /** Its first line (without a CR), when the file is not empty. */
  firstLine: string | null;
}

export interface FrameworkFacts {
  kind: 'framework';
}

/** What MCP clients get of a framework doc. */
export interface FrameworkDoc {
  kind: 'framework';
  name: string;
  size: number;
  content: string;
}

export function parseFramework(file: FileText): FrameworkParse {
  const empty = file.text.trim() === '';
  const nl = file.text.indexOf('\n');
  const firstLine = empty ? null : (nl === -1 ? file.text : file.text.slice(0, nl)).replace(/\r$/, '');
  return { name: baseName(file.path), empty, firstLine };
}
