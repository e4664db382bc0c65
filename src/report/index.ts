import type { LintRun } from '../lint/run.js';
import type { FormatContext } from './context.js';

export type { FormatContext };
import { github } from './github.js';
import { json } from './json.js';
import { junit } from './junit.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';

/** A report format: a pure function of the lint run. */
export type Formatter = (run: LintRun, ctx: FormatContext) => string;

export const FORMATTERS: Record<string, Formatter> = {
  stylish: (run, ctx) => stylish(run, ctx.rulesDoc === undefined ? { color: ctx.color } : { color: ctx.color, rulesDoc: ctx.rulesDoc }),
  json: (run) => json(run),
  github: (run) => github(run),
  sarif: (run, ctx) => sarif(run, ctx),
  junit: (run) => junit(run),
};
