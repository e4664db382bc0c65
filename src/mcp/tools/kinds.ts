/**
 * The MCP tools of each kind of the registry, in registry order (docs/mcp-tools.md): a kind's tools live
 * in its folder (src/mcp/tools/<kind>/). Only the MCP server imports this list, so the lint CLI's bundle
 * carries none of them. Kinds of a root's own are served by the generic list_documents/get_document.
 */
import type { ToolDefinition } from '../tool.js';
import { getFramework } from './framework/get_framework.js';
import { listFrameworks } from './framework/list_frameworks.js';
import { getProcess } from './process/get_process.js';
import { listProcesses } from './process/list_processes.js';
import { searchProcesses } from './process/search_processes.js';
import { getSysrs } from './sysrs/get_sysrs.js';
import { listSysrs } from './sysrs/list_sysrs.js';
import { parseSysrs } from './sysrs/parse_sysrs.js';
import { getTemplate } from './template/get_template.js';
import { listTemplates } from './template/list_templates.js';

export const KIND_TOOLS: Readonly<Record<string, readonly ToolDefinition[]>> = {
  template: [listTemplates, getTemplate],
  framework: [listFrameworks, getFramework],
  process: [listProcesses, getProcess, searchProcesses],
  sysrs: [listSysrs, getSysrs, parseSysrs],
};
