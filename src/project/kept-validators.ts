/**
 * The validators of a root's own schemas, compiled once and kept across runs (docs/performance.md,
 * "Small repositories (issue 27)"): ajv's standalone code of what it compiled, kept in the user's cache
 * folder (src/io/user-cache.ts, docs/reliability.md "Compiled root schemas") under a key of everything
 * the code depends on, and loaded without ajv when the key is found: compiling a schema costs a cold lint
 * of a few hundred documents ~100 ms (loading ajv, compiling its meta-schema and docgate's schemas), loading
 * its code ~1 ms. The same mechanism as the validators the build precompiles for docgate's own schemas
 * (scripts/build-validators.mjs), made at run time.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { readKept, sha256, writeKept } from '../io/user-cache.js';
import { BUILD_ID, VERSION } from '../io/version.js';
import { linearRegExp } from '../parse/linear-regexp.js';

const require = createRequire(import.meta.url);
/** The folder of the user's cache they are kept in. */
const AREA = 'validators';

/** What standalone code may `require`: ajv's run-time helpers and ajv-formats' formats, nothing else. */
const RUNTIME = /^(?:ajv\/dist\/runtime\/[a-z0-9_]+|ajv-formats\/dist\/formats)$/;

/** The versions of ajv and ajv-formats, read once. */
let versions: string[] | undefined;

/**
 * The key of the validator of `text`: the schema text, the texts of docgate's schemas it may `$ref`
 * (`refTargets`, asked only when it has a reference), and what compiles it (this build of docgate,
 * ajv and ajv-formats). Null for the unbundled modules (tests, `src/`), which have no build id.
 */
export function keptKey(text: string, refTargets: () => string): string | null {
  if (BUILD_ID === null) return null;
  versions ??= ['ajv', 'ajv-formats'].map((p) => (require(`${p}/package.json`) as { version: string }).version);
  const refers = /"\$(?:dynamic)?[Rr]ef"/.test(text);
  return sha256('validator 1', VERSION, BUILD_ID, ...versions, text, refers ? refTargets() : '');
}

/** The validator kept under `key`, loaded from its code; null when none is kept (or it does not load). */
export function keptValidator(key: string): ValidateFunction | null {
  const code = readKept(AREA, key);
  if (code === null) return null;
  try {
    const module: { exports: unknown } = { exports: {} };
    const load = (id: string): unknown => {
      if (!RUNTIME.test(id)) throw new Error(`kept validator requires ${id}`);
      return require(id);
    };
    // The code is docgate's own output, read back from where only the user can write (see above).
    new Function('module', 'exports', 'require', 'linearRegExp', code)(module, module.exports, load, linearRegExp);
    return typeof module.exports === 'function' ? (module.exports as ValidateFunction) : null;
  } catch {
    return null;
  }
}

/** Keeps the standalone code of `validate`, compiled by `ajv` with `code.source` (best effort: nothing when it cannot). */
export function keepValidator(key: string, ajv: Ajv2020, validate: ValidateFunction): void {
  try {
    const standalone = require('ajv/dist/standalone/index.js') as { default: (a: Ajv2020, v: ValidateFunction) => string };
    writeKept(AREA, key, standalone.default(ajv, validate));
  } catch {
    /* not kept: the next run compiles again */
  }
}
