import { readFileSync } from 'node:fs';

/** docgate's version, from its package.json (dist/core and src/core are both two levels below it). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
