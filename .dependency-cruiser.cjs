// The layers of docs/architecture.md, checked by `npm run lint`: imports point down only.
//   top (extension.ts, cli.ts, cli/, dap/stdio-main.ts, connectors/registry.ts, connectors/descriptor.ts)
//   front ends: dap/ mcp/ ui/ lsp/ host/ testing/ and each connectors/*/front/ and connectors/*/descriptor.ts
//   session/
//   connectors/* (not front/)
//   cpu/ machines/ debuginfo/
//   core/
const layer = (name, path, allowed) => ({
  name: `${name}-imports-down-only`,
  comment: `${name} may import only: ${allowed.join(', ')}`,
  severity: 'error',
  from: { path },
  to: { path: '^src/', pathNot: [path, ...allowed] },
});
const FRONTS = '^src/(dap/(?!stdio-main\\.ts$)|mcp/|ui/|lsp/|host/|testing/)';
// a connector's own code; its descriptor.ts is a front piece (it names the connector's MCP groups and DAP view)
const CONNECTOR = '^src/connectors/[^/]+/(?!front/|descriptor\\.ts$)';
const CONNECTOR_FRONT = '^src/connectors/[^/]+/(front/|descriptor\\.ts$)';
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    layer('core', '^src/core/', []),
    layer('cpu', '^src/cpu/', ['^src/core/']),
    layer('machines', '^src/machines/', ['^src/core/']),
    layer('debuginfo', '^src/debuginfo/', ['^src/core/']),
    layer('connectors', CONNECTOR, ['^src/core/', '^src/cpu/', '^src/machines/', '^src/debuginfo/', CONNECTOR]),
    layer('session', '^src/session/', ['^src/core/', '^src/debuginfo/', '^src/cpu/']),
    layer('front-ends', FRONTS, ['^src/session/', '^src/core/', '^src/machines/', '^src/debuginfo/', FRONTS]),
    layer('connector-fronts', CONNECTOR_FRONT, [
      '^src/connectors/descriptor\\.ts$',
      '^src/session/',
      '^src/core/',
      '^src/machines/',
      '^src/debuginfo/',
      '^src/cpu/',
      FRONTS,
      CONNECTOR,
    ]),
    {
      name: 'vscode-only-in-the-host',
      comment: 'vscode is imported only by extension.ts, ui/ and host/ (and the LSP client)',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/extension\\.ts$', '^src/ui/', '^src/host/', '^src/lsp/client'] },
      to: { path: '^vscode$', dependencyTypes: ['core', 'npm', 'unknown', 'undetermined'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules|test/fixtures)/' },
  },
};
