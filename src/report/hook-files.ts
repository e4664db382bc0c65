/**
 * The default `files` regex of the pre-commit framework's `docgate` hook (.pre-commit-hooks.yaml;
 * `npm run docs` writes it, test/pre-commit-hooks.test.ts fails when it is stale): every path that a
 * built-in kind or a kind of a shipped preset includes, so that a repository using presets needs no
 * `files` of its own. It only chooses which staged files pre-commit passes: docgate still decides what
 * is a document (a named file that is none under the repository's configuration is left out, with a
 * warning on stderr that pre-commit shows only when the hook fails).
 */
import { expandBraces } from '../io/glob.js';
import { includeGlobs } from '../kinds/index.js';
import { presetNames, presetText } from '../project/presets.js';
import { yamlLibrary } from '../parse/yaml-library.js';

interface PresetData {
  kinds?: Record<string, { include?: string[]; deprecatedInclude?: { globs?: string[] } } | null>;
}

/** The include globs of every kind of every shipped preset (deprecated names too: docgate warns on them). */
export function presetIncludeGlobs(): string[] {
  const out: string[] = [];
  for (const name of presetNames()) {
    const data = (yamlLibrary().parse(presetText(name)) ?? {}) as PresetData;
    for (const kind of Object.values(data.kinds ?? {})) {
      out.push(...(kind?.include ?? []), ...(kind?.deprecatedInclude?.globs ?? []));
    }
  }
  return out;
}

const SPECIAL = /[\\^$.|?*+()[\]{}]/g;

/**
 * One glob of docgate's grammar as a regex body that Python's `re` (pre-commit) and JavaScript read
 * alike, with docgate's semantics: `*` and `?` stay in one segment and never match a segment's leading
 * `.`, `**` is any number of segments none of which starts with `.`. Only what the registry's and the
 * presets' globs use is known (braces are expanded first); anything else is an error here, at
 * generation time, never a regex that quietly matches something else.
 */
function segmentRegex(segment: string): string {
  if (/[[\]\\!@+()]/.test(segment)) throw new Error(`hook files regex: unsupported glob syntax in segment '${segment}'`);
  const body = segment.replace(/[^*?]+|\*|\?/g, (part) => (part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(SPECIAL, '\\$&')));
  return /^[*?]/.test(segment) ? `(?!\\.)${body}` : body;
}

function globRegex(glob: string): string {
  const segments = glob.split('/');
  let out = '';
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '**') {
      if (last) throw new Error(`hook files regex: a trailing ** in '${glob}'`);
      out += '(?:(?!\\.)[^/]+/)*';
    } else out += segmentRegex(segment) + (last ? '' : '/');
  });
  return out;
}

/** The regex (anchored at both ends, as pre-commit's `re.search` needs) matching any of the globs. */
export function globsRegex(globs: readonly string[]): string {
  const bodies = [...new Set(globs.flatMap((g) => expandBraces(g)).map(globRegex))];
  return `^(?:${bodies.join('|')})$`;
}

/** The hook's default `files`: the built-in kinds' documents and every preset's. */
export function hookFilesRegex(): string {
  return globsRegex([...includeGlobs(), ...presetIncludeGlobs()]);
}
