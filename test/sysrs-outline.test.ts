import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../src/parse/frontmatter.js';
import type { HeadingTable } from '../src/model/types.js';
import {
  sysrsKey,
  SYSRS_OUTLINE_RULES,
  type SysrsBody,
  type SysrsBodyCheck,
  type SysrsContainerSection,
  type SysrsListSection,
  type SysrsOutline,
  type SysrsProseSection,
  type SysrsReferencesSection,
  type SysrsUpdatesSection,
} from '../src/kinds/sysrs/outline.js';
import { checkSysrsBody } from '../src/project/outline-files.js';
import { OutlineDataError } from '../src/parse/outline/data.js';

const fixtures = new URL('./fixtures/sysrs-outline/', import.meta.url);
const read = (name: string): string => readFileSync(fileURLToPath(new URL(name, fixtures)), 'utf8');
const outline = JSON.parse(readFileSync(fileURLToPath(new URL('../schemas/sysrs-outline.json', import.meta.url)), 'utf8')) as SysrsOutline;
const deTable = JSON.parse(read('headings.de.json')) as HeadingTable;

function checkText(text: string, table: HeadingTable | null = null, o: SysrsOutline = outline): SysrsBodyCheck {
  const split = splitFrontmatter(text);
  return checkSysrsBody(split.body, split.bodyLineOffset, o, table);
}
const check = (name: string, table: HeadingTable | null = null): SysrsBodyCheck => checkText(read(name), table);

/** The fixture's own line `line` (1-based) on disk. */
const diskLine = (name: string, line: number): string => read(name).split('\n')[line - 1] ?? '';

/** Deep list of keys of a body, with item ids, for comparing a variant with its source. */
function shape(body: SysrsBody): unknown {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((item: Record<string, unknown>) => item['id'] ?? item['timestamp'] ?? item['line']);
    if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .filter((k) => k !== 'text')
          .map((k) => [k, walk(o[k])]),
      );
    }
    return v;
  };
  return walk(body);
}

describe('valid SysRS body', () => {
  const r = check('valid.md');

  it('has no diagnostics and the whole H1 as title', () => {
    expect(r.diagnostics).toEqual([]);
    expect(r.title).toBe('System Requirements Specification: Order Intake Service');
  });

  it('parses to snake_case keys of the canonical headings, present sections only', () => {
    expect(Object.keys(r.body)).toEqual([
      'system_purpose',
      'system_scope',
      'business_context_and_goals',
      'stakeholder_needs_and_elicitation',
      'decisions',
      'risks',
      'system_overview',
      'requirements',
      'other_characteristics',
      'verification',
      'references',
      'definitions_and_acronyms',
      'updates',
    ]);
    const bcg = r.body['business_context_and_goals'] as SysrsContainerSection;
    expect(Object.keys(bcg)).toEqual(['text', 'line', 'business_context', 'goals', 'problem_statement']);
    expect(Object.keys(r.body['requirements'] as SysrsContainerSection)).toEqual(['text', 'line', 'functional_suitability', 'security']);
    expect(r.body).not.toHaveProperty('appendix');
    expect(sysrsKey('Packaging, Handling, Shipping and Transportation')).toBe('packaging_handling_shipping_and_transportation');
  });

  it('gives prose text and heading lines on disk', () => {
    expect(r.body['system_purpose']).toEqual({
      text: 'The order intake service accepts orders from the web shop and hands them\nto fulfilment.',
      line: 12,
    });
    const bcg = r.body['business_context_and_goals'] as SysrsContainerSection;
    expect(bcg.text).toBe('The goals below come from the 2025 planning round.');
    expect(bcg.line).toBe(21);
    const overview = r.body['system_overview'] as SysrsContainerSection;
    expect(overview.text).toBe('');
    expect((overview['system_context'] as SysrsProseSection).text).toBe('```mermaid\nflowchart LR\n  Shop --> Intake --> Queue --> Fulfilment\n```');
  });

  it('gives list items with a wrapped title joined and notes', () => {
    const goals = (r.body['business_context_and_goals'] as SysrsContainerSection)['goals'] as SysrsListSection;
    expect(goals.items).toEqual([
      {
        tag: 'GOL',
        id: '5c2b297c-1cda-4b00-bd03-bd9dd082cd1c',
        title: 'Accept every valid order within two seconds of submission',
        notes: [],
        line: 31,
      },
      {
        tag: 'GOL',
        id: 'bd2c7a3f-8ed3-43aa-be18-59d9dae570a3',
        title: 'Never lose an accepted order',
        notes: ['Measured over a calendar month.', 'Includes orders accepted during a failover.'],
        line: 33,
      },
    ]);
    const decisions = r.body['decisions'] as SysrsListSection;
    expect(decisions.items.map((i) => [i.tag, i.line])).toEqual([
      ['ADR', 49],
      ['DEC', 50],
    ]);
  });

  it('gives references and updates items', () => {
    expect((r.body['references'] as SysrsReferencesSection).items).toEqual([
      { text: '[RFC 2119](https://www.rfc-editor.org/rfc/rfc2119) key words for requirements', line: 91 },
      { text: 'Internal order format, version 3', line: 92 },
    ]);
    expect((r.body['updates'] as SysrsUpdatesSection).items).toEqual([
      {
        timestamp: '2025-11-20T10:00:00.000+01:00',
        title: 'Added the security requirement',
        text: 'Added the TLS requirement.',
        line: 102,
      },
      { timestamp: '2025-11-02 07:34:29.518Z', title: 'Initial draft', text: 'First version.', line: 106 },
    ]);
  });
});

interface Case {
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
  /** Text on the disk line that the column points at. */
  at: string;
}

const cases: Case[] = [
  {
    file: 'missing-purpose.md',
    line: 12,
    column: 1,
    rule: 'sysrs-missing-section',
    message: 'Unexpected `## System Scope`, expected `## System Purpose`',
    at: '## System Scope',
  },
  {
    file: 'purpose-scope-swapped.md',
    line: 16,
    column: 1,
    rule: 'sysrs-heading-order',
    message: 'Unexpected `## System Purpose` after `## System Scope`, expected it before `## System Scope`',
    at: '## System Purpose',
  },
  {
    file: 'unknown-section.md',
    line: 21,
    column: 1,
    rule: 'sysrs-unknown-heading',
    message: 'Unexpected heading `## Unknown Section`, expected a section heading of the SysRS outline',
    at: '## Unknown Section',
  },
  {
    file: 'second-h1.md',
    line: 52,
    column: 1,
    rule: 'sysrs-h1-duplicate',
    message: 'Unexpected second H1 `# Another Title`, expected a single H1',
    at: '# Another Title',
  },
  {
    file: 'prose-before-h1.md',
    line: 10,
    column: 1,
    rule: 'sysrs-h1-first',
    message: 'Unexpected text `A stray line of prose.` before the H1, expected `# System Requirements Specification: <title>` first',
    at: 'A stray line',
  },
  {
    file: 'h1-no-prefix.md',
    line: 10,
    column: 1,
    rule: 'sysrs-h1',
    message: 'Unexpected H1 `# Order Intake Service`, expected `# System Requirements Specification: <title>`',
    at: '# Order Intake Service',
  },
  {
    file: 'goals-empty.md',
    line: 29,
    column: 1,
    rule: 'sysrs-list-empty',
    message: 'Unexpected empty `### Goals`, expected at least one bullet `- GOL <uuid>: <title>`',
    at: '### Goals',
  },
  {
    file: 'goals-prb.md',
    line: 33,
    column: 3,
    rule: 'sysrs-list-tag',
    message: 'Unexpected tag `PRB`, expected `GOL`',
    at: 'PRB bd2c7a3f',
  },
  {
    file: 'uppercase-uuid.md',
    line: 54,
    column: 7,
    rule: 'sysrs-list-uuid',
    message: 'Unexpected uppercase UUID `AA79BE81-8C06-4F28-83EA-713C1BD7D2CC`, expected a lowercase UUID',
    at: 'AA79BE81-',
  },
  {
    file: 'decisions-req.md',
    line: 50,
    column: 3,
    rule: 'sysrs-list-tag',
    message: 'Unexpected tag `REQ`, expected `DEC` or `ADR`',
    at: 'REQ 3dc9e660',
  },
  {
    file: 'requirements-empty.md',
    line: 69,
    column: 1,
    rule: 'sysrs-container-empty',
    message:
      'Unexpected `## Requirements` without a sub-section, expected at least one of `### Functional Suitability`, ' +
      '`### Performance Efficiency`, `### Compatibility`, `### Interaction Capability`, `### Reliability`, ' +
      '`### Security`, `### Maintainability`, `### Flexibility` or `### Safety`',
    at: '## Requirements',
  },
  {
    file: 'references-empty.md',
    line: 89,
    column: 1,
    rule: 'sysrs-list-empty',
    message: 'Unexpected empty `## References`, expected at least one bullet `- <reference>`',
    at: '## References',
  },
  {
    file: 'updates-order.md',
    line: 106,
    column: 5,
    rule: 'sysrs-updates-order',
    message: 'Unexpected `2025-11-20T10:00:00.000+01:00` after the older `2025-11-02 07:34:29.518Z`, expected newest first',
    at: '2025-11-20T10',
  },
  {
    file: 'updates-emdash.md',
    line: 106,
    column: 30,
    rule: 'sysrs-updates-heading',
    message: 'Unexpected separator `—` after the timestamp, expected ` - ` or ` : `',
    at: '— Initial draft',
  },
  {
    file: 'updates-date-only.md',
    line: 106,
    column: 5,
    rule: 'sysrs-updates-heading',
    message: 'Unexpected date-only timestamp `2025-11-02`, expected `YYYY-MM-DD HH:MM:SS.mmm` then `Z` or `±HH:MM`',
    at: '2025-11-02 - Initial draft',
  },
  {
    file: 'updates-not-last.md',
    line: 94,
    column: 1,
    rule: 'sysrs-section-last',
    message: 'Unexpected `## Updates` before `## Definitions and Acronyms`, expected `## Updates` to be the last section',
    at: '## Updates',
  },
];

describe('one defect per fixture, at its own position', () => {
  for (const c of cases) {
    it(`${c.file}: ${c.rule} at ${c.line}:${c.column}`, () => {
      const r = check(c.file);
      expect(r.diagnostics).toEqual([{ line: c.line, column: c.column, rule: c.rule, message: c.message }]);
      // the position is a file position: the column points at the offending text on that disk line
      expect(diskLine(c.file, c.line).indexOf(c.at) + 1).toBe(c.column);
    });
  }
});

describe('several defects and structure', () => {
  it('reports five different defects in one call', () => {
    const r = check('five-defects.md');
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule}`)).toEqual([
      '12:1 sysrs-missing-section',
      '36:3 sysrs-list-tag',
      '47:1 sysrs-unknown-heading',
      '86:7 sysrs-list-uuid',
      '105:5 sysrs-updates-heading',
    ]);
    expect(r.diagnostics[1]!.message).toBe('Unexpected tag `QA`, expected `PRB`');
    expect(r.diagnostics[3]!.message).toBe('Unexpected ID `4c5869d4-9b94-4c77-b5d4`, expected a lowercase UUID like `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`');
  });

  it('does not take a heading inside a fenced code block for a section', () => {
    const r = check('fenced-heading.md');
    expect(r.diagnostics).toEqual([]);
    const functions = (r.body['system_overview'] as SysrsContainerSection)['system_functions'] as SysrsProseSection;
    expect(functions.text).toContain('```markdown\n# Not an H1\n## Unknown Section\n### Goals\n```');
    expect(functions.text).toContain('~~~\n## Updates\n~~~');
    expect((r.body['updates'] as SysrsUpdatesSection).items).toHaveLength(2);
  });

  it('gives the same positions and body for CRLF line endings', () => {
    for (const name of ['valid.md', 'five-defects.md', 'updates-emdash.md', 'goals-prb.md']) {
      const lf = check(name);
      const crlf = checkText(read(name).replace(/\n/g, '\r\n'));
      expect(crlf.diagnostics).toEqual(lf.diagnostics);
      expect(crlf.body).toEqual(lf.body);
      expect(crlf.title).toBe(lf.title);
    }
  });

  it('parses a German variant through its heading table to the same keys and item ids', () => {
    const en = check('valid.md');
    const de = check('valid.de.md', deTable);
    expect(de.diagnostics).toEqual([]);
    expect(de.title).toBe('Systemanforderungsspezifikation: Auftragseingangsdienst');
    expect(shape(de.body)).toEqual(shape(en.body));
    const ids = (b: SysrsBody): string[] => ((b['business_context_and_goals'] as SysrsContainerSection)['goals'] as SysrsListSection).items.map((i) => i.id);
    expect(ids(de.body)).toEqual(ids(en.body));
    const goals = (de.body['business_context_and_goals'] as SysrsContainerSection)['goals'] as SysrsListSection;
    expect(goals.items[0]!.title).toBe('Jeden gültigen Auftrag innerhalb von zwei Sekunden annehmen');
  });

  it('matches variant headings in translation, and reports in the variant language', () => {
    const de = checkText(read('valid.de.md').replace('## Systemzweck', '## System Purpose'), deTable);
    expect(de.diagnostics).toEqual([
      {
        line: 12,
        column: 1,
        rule: 'sysrs-unknown-heading',
        message: 'Unexpected heading `## System Purpose`, expected `## Systemzweck`',
      },
      { line: 12, column: 1, rule: 'sysrs-missing-section', message: 'Unexpected `## System Purpose`, expected `## Systemzweck`' },
    ]);
    const en = check('valid.md', deTable);
    expect(en.diagnostics[0]).toMatchObject({
      line: 10,
      rule: 'sysrs-h1',
      message: 'Unexpected H1 `# System Requirements Specification: Order Intake Service`, expected `# Systemanforderungsspezifikation: <title>`',
    });
  });
});

/** A minimal valid document, to which the small cases below apply one change each. */
const MINI = [
  '---',
  'id: 63a5338b-e336-45d2-a2b7-1b25b579a0a3',
  '---',
  '# System Requirements Specification: Mini',
  '## System Purpose',
  'Purpose.',
  '## System Scope',
  'Scope.',
  '## Business Context and Goals',
  '### Goals',
  '- GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal',
  '## System Overview',
  '### System Context',
  'Context.',
  '### System Functions',
  'Functions.',
  '## Requirements',
  '### Safety',
  '- REQ fdcf8130-ef54-4829-a9e1-d070fc456a2b: A requirement',
  '',
].join('\n');

const miniWith = (from: string, to: string): SysrsBodyCheck => {
  expect(MINI).toContain(from);
  return checkText(MINI.replace(from, to));
};
const brief = (r: SysrsBodyCheck): string[] => r.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule} ${d.message}`);

describe('further rules', () => {
  it('accepts the minimal document', () => {
    const r = checkText(MINI);
    expect(r.diagnostics).toEqual([]);
    expect(Object.keys(r.body)).toEqual(['system_purpose', 'system_scope', 'business_context_and_goals', 'system_overview', 'requirements']);
  });

  it('reports a missing section at the end of the document, and a missing child where its parent ends', () => {
    expect(brief(miniWith('## Requirements\n### Safety\n- REQ fdcf8130-ef54-4829-a9e1-d070fc456a2b: A requirement\n', ''))).toEqual([
      '16:1 sysrs-missing-section Unexpected end of document, expected `## Requirements`',
    ]);
    expect(brief(miniWith('### Goals\n- GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal\n', ''))).toEqual([
      '10:1 sysrs-missing-section Unexpected `## System Overview`, expected `### Goals` in `## Business Context and Goals`',
    ]);
  });

  it('reports a repeated section and a sub-section heading in a prose section', () => {
    expect(brief(miniWith('## System Scope\nScope.\n', '## System Scope\nScope.\n## System Scope\nAgain.\n### Details\nMore.\n'))).toEqual([
      '9:1 sysrs-heading-duplicate Unexpected second `## System Scope`, expected each section once',
    ]);
    expect(brief(miniWith('Purpose.\n', 'Purpose.\n### Details\nMore.\n#### Deeper headings are prose\n'))).toEqual([
      '7:1 sysrs-unknown-heading Unexpected heading `### Details`, expected no sub-section under `## System Purpose`',
    ]);
  });

  it('reports a sub-section heading before the first section', () => {
    expect(brief(miniWith('Mini\n', 'Mini\nIntro prose is fine here.\n### Stray\n'))).toEqual([
      '6:1 sysrs-unknown-heading Unexpected heading `### Stray`, expected a `##` section heading before it',
    ]);
  });

  it('hints at the exact heading or its place for a near miss', () => {
    expect(brief(miniWith('## System Scope', '## System scope'))[0]).toBe(
      '7:1 sysrs-unknown-heading Unexpected heading `## System scope`, expected `## System Scope` (headings match exactly)',
    );
    expect(brief(miniWith('### Safety', '## Safety'))).toEqual([
      '17:1 sysrs-container-empty Unexpected `## Requirements` without a sub-section, expected at least one of `### Functional Suitability`, ' +
        '`### Performance Efficiency`, `### Compatibility`, `### Interaction Capability`, `### Reliability`, `### Security`, ' +
        '`### Maintainability`, `### Flexibility` or `### Safety`',
      '18:1 sysrs-unknown-heading Unexpected heading `## Safety`, expected `### Safety` under `## Requirements`',
    ]);
  });

  it('checks list bullets: shape, numbered items, missing title, indented marker column', () => {
    expect(brief(miniWith('- GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal', '- Just a goal'))).toEqual([
      '11:1 sysrs-list-item Unexpected bullet `Just a goal`, expected `- GOL <uuid>: <title>`',
    ]);
    expect(brief(miniWith('- GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal', '1. GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal'))).toEqual([
      '11:1 sysrs-list-item Unexpected numbered item `1. GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal`, expected a bullet `- GOL <uuid>: <title>`',
    ]);
    expect(brief(miniWith('- GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal', '- GOL 708e0484-73db-4ec5-8c80-7124b92beb36:'))).toEqual([
      '11:1 sysrs-list-item Unexpected bullet `GOL 708e0484-73db-4ec5-8c80-7124b92beb36:` without a title, expected `- GOL <uuid>: <title>`',
    ]);
    expect(brief(miniWith('- GOL 708e0484-73db-4ec5-8c80-7124b92beb36: A goal', '  *   GOL 708e0484-73db-4ec5-8c80-7124b92beb3X: A goal'))).toEqual([
      '11:11 sysrs-list-uuid Unexpected ID `708e0484-73db-4ec5-8c80-7124b92beb3X`, expected a lowercase UUID like `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`',
    ]);
  });

  it('checks Updates: leading comment, content before entries, empty entry, non-existent date, missing title', () => {
    const tail = '\n## Updates\n<!-- newest first -->\n\n### 2025-01-02 10:00:00.000+01:00 - Second\nText.\n### 2025-01-01 10:00:00.000Z - First\nText.\n';
    expect(checkText(MINI + tail).diagnostics).toEqual([]);
    expect(brief(checkText(MINI + tail.replace('<!-- newest first -->', 'Newest first.')))).toEqual([
      '22:1 sysrs-updates-content Unexpected text `Newest first.` before the first entry, expected an HTML comment or `### YYYY-MM-DD HH:MM:SS.mmmZ - <title>`',
    ]);
    expect(brief(checkText(MINI + tail.replace('Second\nText.', 'Second')))).toEqual([
      '24:1 sysrs-updates-empty Unexpected empty entry `### 2025-01-02 10:00:00.000+01:00 - Second`, expected content below it',
    ]);
    expect(brief(checkText(MINI + tail.replace('2025-01-01 10:00', '2025-02-30 10:00')))).toEqual([
      '26:5 sysrs-updates-heading Unexpected timestamp `2025-02-30 10:00:00.000Z` that does not exist, expected a real date and time',
    ]);
    expect(brief(checkText(MINI + tail.replace(' - First', '')))).toEqual([
      '26:1 sysrs-updates-heading Unexpected `### 2025-01-01 10:00:00.000Z` without a title, expected `### YYYY-MM-DD HH:MM:SS.mmmZ - <title>`',
    ]);
    expect(brief(checkText(MINI + tail.replace('10:00:00.000Z', '10:00Z')))).toEqual([
      '26:5 sysrs-updates-heading Unexpected timestamp `2025-01-01 10:00Z`, expected `YYYY-MM-DD HH:MM:SS.mmm` then `Z` or `±HH:MM`',
    ]);
  });

  it('reports a missing H1 and a prefix without a title', () => {
    expect(brief(miniWith('# System Requirements Specification: Mini\n', ''))).toEqual([
      '4:1 sysrs-h1 Unexpected `## System Purpose`, expected `# System Requirements Specification: <title>` first',
    ]);
    expect(brief(miniWith('# System Requirements Specification: Mini', '# System Requirements Specification:'))).toEqual([
      '4:1 sysrs-h1 Unexpected H1 `# System Requirements Specification:` without a title, expected `# System Requirements Specification: <title>`',
    ]);
  });

  it('takes new sections and tags from the outline data, with no code change', () => {
    const extended = structuredClone(outline);
    extended.sections.splice(2, 0, { heading: 'Glossary Notes', level: 2, mandatory: true, content: 'list', tags: ['GLO', 'TRM'] });
    const r = checkText(
      MINI.replace('## Business Context', '## Glossary Notes\n- TRM 1930f0f5-a2ec-4200-bdb7-0cb5c72f1ad4: A term\n## Business Context'),
      null,
      extended,
    );
    expect(r.diagnostics).toEqual([]);
    expect((r.body['glossary_notes'] as SysrsListSection).items[0]).toMatchObject({ tag: 'TRM', line: 10 });
  });

  it('refuses invalid outline data, naming the problem (no diagnostic of the document: the data is at fault)', () => {
    const broken = { h1Prefix: 'X: ', sections: [{ heading: 'A', level: 3, content: 'prose' }] } as unknown as SysrsOutline;
    expect(() => checkText(MINI, null, broken)).toThrow(new OutlineDataError('sections[0].level is 3, not 2', '/sections/0/level'));
  });
});

describe('garbage input never throws', () => {
  const inputs: string[] = [
    '',
    '#',
    '# ',
    '\n\n\n',
    'random text without any structure',
    '\u0000\u0000\u0000',
    '\r\r\r# x\r',
    '- GOL',
    '### 2025',
    '## Updates\n### \n',
    '```\nunterminated fence',
    '> # quoted\n> ## System Purpose',
    '#'.repeat(7) + ' too deep',
    '\uFEFF# System Requirements Specification: BOM',
    '\uD800 lone surrogate ## \uDFFF',
    '<!--\n# not closed',
    '- [ ] \n  - \n    - \n',
    Array.from({ length: 2000 }, (_, i) => (i % 7 === 0 ? '## Updates' : i % 5 === 0 ? '### 2025-13-45 - x' : `- ${'>'.repeat(i % 40)} x`)).join('\n'),
  ];
  for (let seed = 1; seed <= 5; seed++) {
    let x = seed * 2654435761;
    const alphabet = '#-*>`~ \n\r\t:0123456789abcdefABCDEF[]()<!-_.|\u00e4\u2014';
    let s = '';
    for (let i = 0; i < 3000; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      s += alphabet[x % alphabet.length];
    }
    inputs.push(s);
  }

  it('returns a result for every input, with well-formed diagnostics', () => {
    for (const input of inputs) {
      for (const table of [null, deTable]) {
        const r = checkSysrsBody(input, 3, outline, table);
        expect(Array.isArray(r.diagnostics)).toBe(true);
        for (const d of r.diagnostics) {
          expect(d.line).toBeGreaterThanOrEqual(1);
          expect(d.column).toBeGreaterThanOrEqual(1);
          expect(d.rule).toMatch(/^sysrs-/);
          expect(d.message).toMatch(/^Unexpected .+, expected /s);
        }
      }
    }
  });

  it('reports the empty body and a bare `#` as a missing or bad H1', () => {
    expect(checkSysrsBody('', 0, outline, null).diagnostics[0]).toEqual({
      line: 1,
      column: 1,
      rule: 'sysrs-h1',
      message: 'Unexpected end of document, expected `# System Requirements Specification: <title>` first',
    });
    const hash = checkSysrsBody('#', 0, outline, null);
    expect(hash.title).toBe('');
    expect(hash.diagnostics[0]).toMatchObject({ line: 1, column: 1, rule: 'sysrs-h1' });
  });

  it('survives garbage outline, table and arguments', () => {
    const bad = [null, undefined, 42, 'x', {}, { h1Prefix: 1 }, { h1Prefix: 'a', sections: 'no' }] as unknown as SysrsOutline[];
    for (const o of bad) expect(() => checkSysrsBody('# x', 0, o, null)).toThrow(OutlineDataError);
    const badTable = { language: 'xx', h1Prefix: 7, headings: null } as unknown as HeadingTable;
    expect(checkSysrsBody(read('valid.md').split('---\n').slice(2).join('---\n'), 8, outline, badTable).diagnostics).toEqual([]);
    expect(checkSysrsBody(undefined as unknown as string, Number.NaN, outline, null).diagnostics[0]!.rule).toBe('sysrs-h1');
  });
});

describe('rule catalogue', () => {
  it('documents every rule id the engine reports', () => {
    const seen = new Set<string>();
    const texts = [...cases.map((c) => read(c.file)), read('five-defects.md')];
    for (const t of texts) for (const d of checkText(t).diagnostics) seen.add(d.rule);
    for (const rule of seen) expect(SYSRS_OUTLINE_RULES).toHaveProperty([rule]);
    const doc = readFileSync(fileURLToPath(new URL('../docs/sysrs-outline.md', import.meta.url)), 'utf8');
    for (const rule of Object.keys(SYSRS_OUTLINE_RULES)) expect(doc).toContain('`' + rule + '`');
  });
});
