import { describe, expect, it } from 'vitest';
import { compileArguments as compileFromSource } from '../src/mcp/arguments.js';
import { TOOLS } from '../src/mcp/tools/index.js';

// The built modules (`npm test` builds first): their checks use the validators scripts/build-validators.mjs
// precompiled into dist/validators; the source's, run from src/, find none there and compile with ajv.
const built = (await import('../dist/mcp/arguments.js')) as typeof import('../src/mcp/arguments.js');
const { precompiledModule } = (await import('../dist/project/schemas.js')) as typeof import('../src/project/schemas.js');

/** Arguments of every wrong shape for a tool: each property given each JSON type, an unknown one, none, not an object. */
function badArguments(properties: Record<string, unknown>): unknown[] {
  const values = [42, 1.5, -1, 'x', '', true, null, [], ['a', 1], {}, { a: 1 }];
  const out: unknown[] = [{}, { unknown_argument: 1 }, 42, 'x', null, []];
  for (const name of Object.keys(properties)) for (const v of values) out.push({ [name]: v });
  return out;
}

describe('MCP tool arguments: precompiled checks', () => {
  it('every tool has a validator precompiled from its exact input schema', () => {
    for (const tool of TOOLS)
      expect(precompiledModule(JSON.stringify(tool.inputSchema), built.ARGUMENTS_MANIFEST), tool.name).toMatch(/arguments[/\\][a-z_]+\.cjs$/);
  });

  it('gives the same answer as the schema compiled at run time, for every tool and every wrong shape of arguments', () => {
    let refused = 0;
    for (const tool of TOOLS) {
      const precompiled = built.compileArguments(tool.name, tool.inputSchema);
      const compiled = compileFromSource(tool.name, tool.inputSchema);
      for (const args of badArguments(tool.inputSchema.properties ?? {})) {
        const answer = compiled(args);
        expect(precompiled(args), `${tool.name} ${JSON.stringify(args)}`).toBe(answer);
        if (answer !== null) refused++;
      }
    }
    expect(refused).toBeGreaterThan(200);
  });
});
