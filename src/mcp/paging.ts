/** Paging of the MCP list tools (SPEC §4.4: list_sysrs; list_documents pages the same way). */
export const DEFAULT_PAGE = 25;
export const MAX_PAGE = 100;
/** Title (and status) of a row whose document fails to parse. */
export const FAILED = '<failed to parse>';
