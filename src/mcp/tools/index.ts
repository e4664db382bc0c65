import { BUILTIN_KINDS } from '../../kinds/index.js';
import { KIND_TOOLS } from './kinds.js';
import type { ToolDefinition } from '../tool.js';
import { getDocument } from './get_document.js';
import { listDocuments } from './list_documents.js';
import { validate } from './validate.js';
import { checkContent } from './check_content.js';

/**
 * Every tool of `docgate mcp`, in the order `tools/list` names them: each kind's own (in registry
 * order), then the tools of every kind (list_documents, get_document) and of the whole root (validate, check_content).
 */
export const TOOLS: readonly ToolDefinition[] = [...BUILTIN_KINDS.flatMap((k) => KIND_TOOLS[k.name] ?? []), listDocuments, getDocument, validate, checkContent];
