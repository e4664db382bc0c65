import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fields of docgate's package.json read at run time. */
interface PackageJson {
  version: string;
  homepage?: string;
  repository?: string | { url?: string };
}

/** docgate's own folder, where its package.json, schemas and docs are (dist/io, dist/bundle and src/io are each two levels below it). */
export const PACKAGE_DIR: string = fileURLToPath(new URL('../..', import.meta.url));

const PACKAGE = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as PackageJson;

/** docgate's version, from its package.json. */
export const VERSION: string = PACKAGE.version;

/** The build's id, set by the bundler (scripts/bundle.mjs); the unbundled modules have none. */
declare const __DOCGATE_BUILD__: string | undefined;

/**
 * The build, for the caches: two builds of one version (installed from different git commits) may check
 * differently, so neither replays the other's cache (src/store/cache-file.ts). Null in the unbundled modules.
 */
export const BUILD_ID: string | null = typeof __DOCGATE_BUILD__ === 'string' ? __DOCGATE_BUILD__ : null;

/**
 * The web address of a repository as package.json names it: `git+https://host/o/r.git`,
 * `git+ssh://git@host/o/r.git`, `git@host:o/r.git`, `github:o/r` or `o/r` → `https://host/o/r`;
 * a `homepage` loses its `#readme`. Undefined for anything else.
 */
export function repositoryWebUrl(pkg: Pick<PackageJson, 'homepage' | 'repository'>): string | undefined {
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const candidates = [repo, pkg.homepage].filter((s): s is string => typeof s === 'string' && s !== '');
  for (const raw of candidates) {
    const s = raw
      .trim()
      .replace(/^github:|^(?=[\w.-]+\/[\w.-]+$)/, 'https://github.com/')
      .replace(/^git\+/, '')
      .replace(/^(?:ssh:\/\/)?git@([^:/]+)[:/]/, 'https://$1/')
      .replace(/^git:\/\//, 'https://')
      .replace(/#.*$/, '')
      .replace(/\.git$|\/+$/g, '');
    if (/^https?:\/\/[^/\s]+\/[^/\s]+\/[^/\s]+$/.test(s)) return s;
  }
  return undefined;
}

const WEB = repositoryWebUrl(PACKAGE);

/**
 * docs/rules.md in the repository package.json names, on its default branch (`blob/HEAD`): SARIF rules
 * link their section of it (`#<rule id>`). Undefined when package.json names no repository.
 */
export const RULES_DOC_URL: string | undefined = WEB === undefined ? undefined : `${WEB}/blob/HEAD/docs/rules.md`;
