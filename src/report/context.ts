/** What a report format knows besides the run. */
export interface FormatContext {
  /** Colours for the terminal (stylish only; only when writing to a TTY). */
  color: boolean;
  /** docgate's version, for formats that record the tool (SARIF). */
  version: string;
  /** Where docs/rules.md is read on the web, for links to a rule's section (SARIF `helpUri`); none when absent. */
  rulesDoc?: string;
}
