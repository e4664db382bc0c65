import { BUILTIN_KINDS } from '../../kinds/index.js';
import { KIND_TOOLS } from './kinds.js';
import type { ToolDefinition } from '../tool.js';
import { getDocument } from './get_document.js';
import { listDocuments } from './list_documents.js';
import { validate } from './validate.js';
import { checkContent } from './check_content.js';
import { createDocumentTool } from './write/create_document.js';
import { updateDocumentTool } from './write/update_document.js';
import { editDocumentTool } from './write/edit_document.js';

/**
 * Every tool of `docgate mcp`, in the order `tools/list` names them: each kind's own (in registry
 * order), then the tools of every kind (list_documents, get_document) and of the whole root (validate, check_content).
 */
export const TOOLS: readonly ToolDefinition[] = [...BUILTIN_KINDS.flatMap((k) => KIND_TOOLS[k.name] ?? []), listDocuments, getDocument, validate, checkContent];

/** The tools that write documents, served only with `docgate mcp --allow-writes` (docs/mcp.md, "Validated writes"). */
export const WRITE_TOOLS: readonly ToolDefinition[] = [createDocumentTool, updateDocumentTool, editDocumentTool];

/** The tools a server lists and runs: the write tools after the others when writes are allowed. */
export function toolsServed(allowWrites: boolean): readonly ToolDefinition[] {
  return allowWrites ? [...TOOLS, ...WRITE_TOOLS] : TOOLS;
}
