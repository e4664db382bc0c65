// The dependency rule of docs/architecture.md: each layer of src/ imports only the layers below it, and
// no file imports itself round (type-only imports count: they couple modules as much). Run by
// `npm run lint` and in CI.
const LAYERS = ['model', 'io', 'parse', 'engine', 'rules', 'kinds', 'project', 'store', 'lint', 'report', 'mcp', 'lsp', 'cli'];

const upward = LAYERS.map((layer, i) => ({
  name: `${layer}-imports-only-below`,
  comment: `src/${layer}/ may import only ${
    i === 0
      ? 'nothing of src/'
      : LAYERS.slice(0, i)
          .map((l) => `src/${l}/`)
          .join(', ')
  } (and itself)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${LAYERS.slice(i + 1).join('|')})/` },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no file may import itself round (through any number of files)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'lsp-beside-mcp',
      comment: 'the two servers are frontends side by side: src/lsp/ imports nothing of src/mcp/ (what both need lives in the core)',
      severity: 'error',
      from: { path: '^src/lsp/' },
      to: { path: '^src/mcp/' },
    },
    {
      name: 'yaml-through-its-library',
      comment:
        'the yaml package is reached through src/parse/yaml-library.ts alone (types aside): the CLI loads it on first use (docs/decisions.md, "The CLI starts from a V8 code cache")',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/parse/yaml-library\\.ts$' },
      to: { path: '^node_modules/yaml/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-unknown-layer',
      comment: 'every module of src/ lives in a layer folder of docs/architecture.md',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(${LAYERS.join('|')})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
