/**
 * A SysRS that passes every outline rule: the base of examples that need one. It is a file docgate ships
 * (schemas/examples/valid-sysrs.md), read when an example is first looked at (the docs, the rule
 * resources, the tests of examples), never by a lint.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_DIR } from '../../io/version.js';

let text: string | undefined;

export function validSysrs(): string {
  return (text ??= readFileSync(join(PACKAGE_DIR, 'schemas', 'examples', 'valid-sysrs.md'), 'utf8'));
}
