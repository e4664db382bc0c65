/**
 * The names a kind of your own finds in a document's path (its stem, its folder) and how ids compare
 * (docs/formats.md, "Kinds of your own"). Names are compared after NFKC, as the Agent Skills reference
 * validator does: a folder name written in NFD on macOS equals the same name typed in NFC.
 */
import { baseName, stem } from '../../model/paths.js';

/**
 * The literal suffixes of include globs whose last segment is `*<suffix>` with `<suffix>` starting with
 * `.` (`**\/*.agent.md` → `.agent.md`), longest first, or null for a glob whose last segment is another
 * pattern: the stem strips the suffix of the glob that matched, else the last extension.
 */
export function globSuffix(glob: string): string | null {
  const last = glob.slice(glob.lastIndexOf('/') + 1);
  const m = /^\*(\.[^*?[\]{}!\\]+)$/.exec(last);
  return m ? m[1]! : null;
}

/** How a kind finds a document's stem: without the suffix of the include glob that matched, else without the last extension. */
export function stemmer(globs: readonly { suffix: string | null; match: (path: string) => boolean }[]): (path: string) => string {
  return (path) => {
    const name = baseName(path);
    for (const g of globs) {
      if (g.suffix !== null && name.length > g.suffix.length && name.endsWith(g.suffix) && g.match(path)) return name.slice(0, -g.suffix.length);
    }
    return stem(path);
  };
}

/** The name of the folder a document lies in, or null for a file at the root. */
export function folderName(path: string): string | null {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return null;
  const dir = path.slice(0, slash);
  return dir.slice(dir.lastIndexOf('/') + 1);
}

/** The key two ids are the same by: NFKC, and case-folded when the kind says ids ignore case. */
export function idKey(value: string, ignoreCase: boolean): string {
  const n = value.normalize('NFKC');
  return ignoreCase ? n.toLowerCase().normalize('NFKC') : n;
}
