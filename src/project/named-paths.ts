/**
 * Named paths that select nothing (docs/decisions.md, "Named paths that select nothing warn"): `docgate lint a b c` warns, on stderr, for a path that the
 * configuration or git ignores, a file that is no document of any kind, and a folder that holds no documents,
 * and lints the rest. A typo in a CI path would otherwise pass green, silently.
 */
import { compilePathGlob, inGitFolder } from '../io/glob.js';
import type { Project } from './project.js';

/** What the project's kinds accept, for a warning: `process: processes/*.md; sysrs: docs/sysrs/*.md, docs/sysrs/<lang>/*.md`. */
function kindsAccepted(project: Project): string {
  return project.kinds
    .map((k) => {
      const globs = k.include.flatMap((g) => {
        if (!k.variants) return [g];
        const slash = g.lastIndexOf('/');
        return [g, `${g.slice(0, slash + 1)}<lang>/${g.slice(slash + 1)}`];
      });
      return `${k.name}: ${globs.join(', ')}`;
    })
    .join('; ');
}

/** The `ignores` glob (or `--ignore-pattern`) that hides a root-relative path, with where it comes from. */
function ignoredBy(project: Project, rel: string): string | null {
  const sources: [readonly string[], string][] = [
    [project.config.ignores, `ignores in ${project.config.file ?? 'the configuration'}`],
    [project.ignorePatterns, '--ignore-pattern'],
  ];
  for (const [globs, where] of sources) {
    for (const g of globs) if (compilePathGlob(g).match(rel)) return `\`${g}\` (${where})`;
  }
  return null;
}

/**
 * The warning for a named path (`given`, as typed; `rel`, root-relative) that selects no document, or
 * null when it is a document. Without the `docgate: warning: ` prefix the CLI adds to every notice.
 */
export function skippedPath(project: Project, given: string, rel: string, dir: boolean, selectsAny: boolean, byGit = false): string | null {
  if (selectsAny) return null;
  const ignored = project.layout.isIgnored(rel) ? ignoredBy(project, rel) : null;
  if (ignored !== null) return `${given} is ignored by ${ignored}`;
  if (inGitFolder(rel)) return `${given} is in a \`.git\` folder, which holds no documents`;
  // A file git ignores is no document (docs/reliability.md): git says which of its rules ignores it.
  if (byGit) return `${given} is ignored by git (\`git check-ignore -v ${given}\` names the rule)`;
  if (dir) return `${given} holds no documents of any kind (${kindsAccepted(project)})`;
  return `${given} is not a document of any kind (${kindsAccepted(project)})`;
}
