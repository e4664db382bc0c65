import type { Pos } from './position.js';

/** A usage or configuration problem (exit code 2), as opposed to a content defect. */
export class ConfigError extends Error {}

/** A command line docgate cannot read (unknown command, option or format): the usage follows the message. */
export class UsageError extends ConfigError {}

/**
 * A refused rule file (a schema, an outline, a heading table): a configuration error (exit 2) read as
 * `<file>:<line>:<column> <problem>`, positioned at the value at fault (1:1 for the file as a whole),
 * like a problem in the configuration file.
 */
export class RuleDataError extends ConfigError {
  constructor(
    readonly file: string,
    readonly at: Pos,
    problem: string,
  ) {
    super(`${file}:${at.line}:${at.column} ${problem}`);
  }
}
