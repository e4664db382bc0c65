import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempRoot } from './helpers.js';

/** A `$schema` key, what editors validate a configuration by, is allowed and ignored (docs/configuration.md). */
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const PROCESS = { 'processes/a.md': '---\nname: A\ndescription: The first step\n---\n\n# A\n\nDo it.\n' };

describe('$schema in the configuration', () => {
  it('is allowed in docgate.config.json and docgate.config.yaml, and changes nothing', () => {
    const json = tempRoot(
      'docgate-schema-key-',
      { ...PROCESS, 'docgate.config.json': '{"$schema": "node_modules/docgate/schemas/docgate.config.schema.json"}\n' },
      made,
    );
    expect(runCli(['lint', '--root', json])).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
    const yaml = tempRoot(
      'docgate-schema-key-',
      { ...PROCESS, 'docgate.config.yaml': '$schema: ./node_modules/docgate/schemas/docgate.config.schema.json\n' },
      made,
    );
    expect(runCli(['lint', '--root', yaml])).toEqual({ code: 0, stdout: '0 problems in 0 files (1 file checked)\n', stderr: '' });
  });

  it('must be a string, refused at its value otherwise', () => {
    const root = tempRoot('docgate-schema-key-', { ...PROCESS, 'docgate.config.yaml': '$schema: 3\n' }, made);
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'docgate: docgate.config.yaml:1:10 Unexpected number for `$schema`, expected a string (the JSON Schema an editor validates this file against, e.g. `node_modules/docgate/schemas/docgate.config.schema.json`; docgate ignores it)\n',
    });
  });
});

describe('a rule file neither the root nor docgate has', () => {
  it("is named where the root would keep it (its schemas/ folder), not in docgate's package", () => {
    const root = tempRoot(
      'docgate-missing-rule-',
      { 'adr/a.md': '---\nid: a\n---\n\n# A\n', 'docgate.config.yaml': 'kinds:\n  adr:\n    include: ["adr/*.md"]\n    frontmatter: adr.schema.json\n' },
      made,
    );
    expect(runCli(['lint', '--root', root])).toEqual({
      code: 2,
      stdout: '',
      stderr: `docgate: cannot read rule file ${root}/schemas/adr.schema.json: it does not exist\n`,
    });
  });
});
