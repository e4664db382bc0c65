import { escapeCandidates, jsonEscape } from '../model/hidden-unicode.js';
import type { LintRun } from '../lint/run.js';
import { formatDiagnostic } from '../model/result.js';
import type { FormatContext } from './context.js';
import { describeRule } from './rule-descriptions.js';
import { ruleHelpUri } from './rule-link.js';
import { reported } from './summary.js';

/** The OASIS SARIF 2.1.0 schema (errata 01, the final version). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
export const SARIF_URI_BASE_ID = '%SRCROOT%';

/* The part of the SARIF 2.1.0 object model that docgate writes. */

interface SarifMessage {
  text: string;
}

interface SarifArtifactLocation {
  uri: string;
  uriBaseId: string;
  index?: number;
}

interface SarifRegion {
  startLine: number;
  startColumn: number;
  endLine?: number;
  endColumn?: number;
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: 'error' | 'warning';
  message: SarifMessage;
  locations: { physicalLocation: { artifactLocation: SarifArtifactLocation; region: SarifRegion } }[];
}

interface SarifRule {
  id: string;
  shortDescription: SarifMessage;
  /** The rule's section of docs/rules.md (code scanning links it as the rule's help). */
  helpUri?: string;
  defaultConfiguration: { level: 'error' | 'warning' };
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: {
    tool: { driver: { name: string; version: string; informationUri?: string; rules: SarifRule[] } };
    columnKind: 'utf16CodeUnits';
    artifacts: { location: SarifArtifactLocation; properties: { kind: string } }[];
    results: SarifResult[];
  }[];
}

/**
 * A root-relative path as a relative URI reference: each segment percent-encoded, so spaces, `%`, `#`,
 * `?` and a `:` (which would otherwise read as a scheme) stay part of the path.
 */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export { ruleHelpUri };

/** Builds the SARIF log object (the `sarif` format is its JSON). */
export function sarifLog(run: LintRun, ctx: Pick<FormatContext, 'version' | 'rulesDoc'>): SarifLog {
  const shown = reported(run);
  const ruleIds = [...new Set(shown.flatMap((r) => r.diagnostics.map((d) => d.rule)))].sort();
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const rules: SarifRule[] = ruleIds.map((id) => {
    const helpUri = ruleHelpUri(id, ctx.rulesDoc);
    return {
      id,
      shortDescription: { text: run.rules?.get(id)?.rule.description ?? describeRule(id) },
      ...(helpUri !== undefined ? { helpUri } : {}),
      defaultConfiguration: { level: run.rules?.get(id)?.rule.severity ?? 'error' },
    };
  });
  const artifacts: SarifLog['runs'][number]['artifacts'] = [];
  const results: SarifResult[] = [];
  for (const r of shown) {
    const uri = pathToUri(r.path);
    const index = artifacts.length;
    // The kind of document (a property bag: SARIF has no field for it; code-scanning tools ignore it).
    artifacts.push({ location: { uri, uriBaseId: SARIF_URI_BASE_ID }, properties: { kind: r.kind } });
    for (const d of r.diagnostics) {
      const region: SarifRegion = { startLine: d.line, startColumn: d.column };
      if (d.endLine !== undefined) region.endLine = d.endLine;
      if (d.endColumn !== undefined) region.endColumn = d.endColumn;
      results.push({
        ruleId: d.rule,
        ruleIndex: ruleIndex.get(d.rule)!,
        level: d.severity === 'warning' ? 'warning' : 'error',
        // The diagnostic's line of the canonical `error` text, byte for byte (docs/formats.md, "The `error` text").
        message: { text: formatDiagnostic(d) },
        locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: SARIF_URI_BASE_ID, index }, region } }],
      });
    }
  }
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'docgate', version: ctx.version, rules } },
        columnKind: 'utf16CodeUnits',
        artifacts,
        results,
      },
    ],
  };
}

/**
 * `sarif`: SARIF 2.1.0, one run, one result per diagnostic; JSON with a 2-space indent, hidden
 * characters written as JSON escapes (the values are the same, the text shows none).
 */
export function sarif(run: LintRun, ctx: Pick<FormatContext, 'version' | 'rulesDoc'>): string {
  return `${escapeCandidates(JSON.stringify(sarifLog(run, ctx), null, 2), jsonEscape)}\n`;
}
