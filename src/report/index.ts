import type { LintRun } from '../lint/lint.js';
import { github } from './github.js';
import { json } from './json.js';
import { junit } from './junit.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';

export interface FormatContext {
  /** Colours for the terminal (stylish only; only when writing to a TTY). */
  color: boolean;
  /** docgate's version, for formats that record the tool (SARIF). */
  version: string;
  /** Where docs/rules.md is read on the web, for links to a rule's section (SARIF `helpUri`); none when absent. */
  rulesDoc?: string;
}

/** A report format: a pure function of the lint run. */
export type Formatter = (run: LintRun, ctx: FormatContext) => string;

export const FORMATTERS: Record<string, Formatter> = {
  stylish: (run, ctx) => stylish(run, { color: ctx.color }),
  json: (run) => json(run),
  github: (run) => github(run),
  sarif: (run, ctx) => sarif(run, ctx),
  junit: (run) => junit(run),
};
