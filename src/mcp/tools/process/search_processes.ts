import type { DocRow } from '../../../model/analysis.js';
import type { ProcessDoc } from '../../../kinds/process/parse.js';
import { documentText } from '../../../lint/document-text.js';
import { rowOutcome } from '../../entries.js';
import { processContent } from '../../../kinds/process/parse.js';
import { closedObject } from '../../schemas.js';
import { foldCase, occurrences } from '../../substring.js';
import { byCodePoint } from '../../text.js';
import { ToolError, defineTool, jsonOutput } from '../../tool.js';

/** The scoring of search_processes (docs/mcp-tools.md). */
export const POINTS = { name: 100, description: 50, perContentMatch: 10, contentCap: 50, scale: 200 } as const;
export const MAX_SEARCH_RESULTS = 50;
const SNIPPET_CONTEXT = 50;
/** Longer queries are refused as invalid arguments. */
export const MAX_QUERY_LENGTH = 4096;

interface Hit {
  name: string;
  slug: string;
  description: string;
  relevance_score: number;
  snippet: string;
}

/** Scores one process for a case-insensitive substring query; null when nothing matches. */
export function scoreProcess(doc: Pick<ProcessDoc, 'name' | 'slug' | 'description' | 'content'>, query: string): Hit | null {
  const needle = foldCase(query);
  const f = { name: foldCase(doc.name), description: foldCase(doc.description), content: foldCase(doc.content) };
  let points = 0;
  if (occurrences(f.name, needle, 1).count > 0) points += POINTS.name;
  if (occurrences(f.description, needle, 1).count > 0) points += POINTS.description;
  // Occurrences past the cap add nothing.
  const body = occurrences(f.content, needle, POINTS.contentCap / POINTS.perContentMatch);
  points += Math.min(POINTS.contentCap, body.count * POINTS.perContentMatch);
  if (points === 0) return null;
  let snippet = '';
  if (body.first !== -1) {
    // Folding keeps every character at its index: the match is cut from the original text.
    const start = Math.max(0, body.first - SNIPPET_CONTEXT);
    const end = Math.min(doc.content.length, body.first + needle.length + SNIPPET_CONTEXT);
    snippet = `${start > 0 ? '...' : ''}${doc.content.slice(start, end)}${end < doc.content.length ? '...' : ''}`;
  }
  return { name: doc.name, slug: doc.slug, description: doc.description, relevance_score: Math.round((points / POINTS.scale) * 100) / 100, snippet };
}

export const searchProcesses = defineTool<{ query: string }>({
  name: 'search_processes',
  title: 'Search processes',
  description: [
    'Search the process documents for a case-insensitive substring of their name, description or body, best match first.',
    'Use get_process instead when you know the slug or the name, and list_processes to see every process.',
    'A name match weighs most, then a description match, then each body occurrence (up to five); ties go by slug. At most 50 results, each with a snippet around its first body match.',
    'Documents that fail to parse are not searched (list_processes shows them). An empty query is an invalid argument.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        maxLength: MAX_QUERY_LENGTH,
        description: 'Text to look for, matched as a substring ignoring case; one of only spaces is an invalid argument.',
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  outputSchema: closedObject(
    {
      results: {
        type: 'array',
        maxItems: MAX_SEARCH_RESULTS,
        items: closedObject({
          name: { type: 'string' },
          slug: { type: 'string' },
          description: { type: 'string' },
          relevance_score: {
            type: 'number',
            minimum: 0,
            maximum: 1,
            description: 'Points / 200, rounded to 2 decimals: name 100, description 50, 10 per body occurrence up to 50.',
          },
          snippet: {
            type: 'string',
            description: 'Up to 50 characters either side of the first body match, with ... where cut; empty when only the name or description matched.',
          },
        }),
      },
      query: { type: 'string' },
      count: { type: 'integer', minimum: 0, description: 'Results returned, at most 50.' },
      total_processes: { type: 'integer', minimum: 0, description: 'Processes searched: the ones that parse.' },
      message: { type: 'string' },
    },
    ['results', 'query', 'count', 'total_processes'],
  ),
  async handler({ query }, ctx) {
    const needle = query.trim();
    if (needle === '') throw new ToolError('query must not be empty');
    const hits: Hit[] = [];
    let total = 0;
    const project = ctx.project();
    for (const e of await ctx.repo.load('process')) {
      const { row } = rowOutcome<DocRow & { name: string; slug: string; description: string }>(e);
      if (!row) continue;
      total++;
      // The body is read again (the server keeps rows): a process removed since its entry was made is skipped.
      const text = documentText(e.ref, project);
      if (text === null) continue;
      const hit = scoreProcess({ name: row.name, slug: row.slug, description: row.description, content: processContent(text) }, needle);
      if (hit) hits.push(hit);
    }
    hits.sort((a, b) => b.relevance_score - a.relevance_score || byCodePoint(a.slug, b.slug));
    const results = hits.slice(0, MAX_SEARCH_RESULTS);
    const out: Record<string, unknown> = { results, query, count: results.length, total_processes: total };
    if (results.length === 0) out.message = 'No processes matched the search criteria.';
    return jsonOutput(out);
  },
});
