/**
 * The `yaml` package, as the rest of docgate reaches it: through `yamlLibrary()`, never by an import of
 * its own. The CLI's bundle replaces this module with one that loads the package on first use, from a
 * bundle of its own compiled from its own V8 code cache (scripts/bundle.mjs, bin/docgate.js): a run
 * whose configuration and frontmatter the flat reader takes whole never loads it (docs/decisions.md,
 * "The CLI starts from a V8 code cache").
 */
import * as yaml from 'yaml';

export type YamlLibrary = typeof yaml;

export function yamlLibrary(): YamlLibrary {
  return yaml;
}
