/** The MCP server (SPEC §4.4) is built in its own issue; this entry keeps `docgate mcp` honest until then. */
export async function serveStdio(_root: string): Promise<void> {
  process.stderr.write('docgate: the MCP server is not built yet\n');
  process.exitCode = 2;
}
