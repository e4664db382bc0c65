import type { ToolDefinition } from '../tool.js';
import { getFramework } from './get_framework.js';
import { getProcess } from './get_process.js';
import { getSysrs } from './get_sysrs.js';
import { getTemplate } from './get_template.js';
import { listFrameworks } from './list_frameworks.js';
import { listProcesses } from './list_processes.js';
import { listSysrs } from './list_sysrs.js';
import { listTemplates } from './list_templates.js';
import { parseSysrs } from './parse_sysrs.js';
import { searchProcesses } from './search_processes.js';
import { validate } from './validate.js';
import { getDocument } from './get_document.js';
import { listDocuments } from './list_documents.js';

/** Every tool of `docgate mcp`, in the order `tools/list` names them. */
export const TOOLS: readonly ToolDefinition[] = [
  listTemplates,
  getTemplate,
  listFrameworks,
  getFramework,
  listProcesses,
  getProcess,
  searchProcesses,
  listSysrs,
  getSysrs,
  parseSysrs,
  listDocuments,
  getDocument,
  validate,
];
