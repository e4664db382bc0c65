/**
 * SysRS's body outline (`schemas/sysrs-outline.json`, SPEC §2.4) through the generic outline engine
 * (src/parse/outline/, rules in src/rules/outline/): the SysRS names of the body model (SPEC §4.4) and
 * `checkSysrsBody`, a body checked outside a lint. docs/sysrs-outline.md documents both.
 */
import type { HeadingTable } from '../../model/types.js';
import { checkOutlineData } from '../../project/outline-files.js';
import { compileOutline } from '../../parse/outline/data.js';
import type { ContainerSection, ListItemEntry, ListSection, OutlineBody, ProseSection, ReferenceItem, ReferencesSection, BodySection, UpdateItem, UpdatesSection } from '../../parse/outline/model.js';
import { checkOutlineBody, outlineRules } from '../../rules/outline/index.js';
import type { OutlineBodyCheck } from '../../rules/outline/index.js';
import { SYSRS_OUTLINE_NAME } from './parse.js';

export type { OutlineData as SysrsOutline, OutlineSectionData as SysrsOutlineSection, OutlineContent as SysrsContentKind } from '../../parse/outline/data.js';
export { outlineKey as sysrsKey } from '../../parse/outline/data.js';

export type SysrsProseSection = ProseSection;
export type SysrsListItem = ListItemEntry;
export type SysrsListSection = ListSection;
export type SysrsReferenceItem = ReferenceItem;
export type SysrsReferencesSection = ReferencesSection;
export type SysrsUpdateItem = UpdateItem;
export type SysrsUpdatesSection = UpdatesSection;
export type SysrsContainerSection = ContainerSection;
export type SysrsSection = BodySection;
export type SysrsBody = OutlineBody;
export type SysrsBodyCheck = OutlineBodyCheck;

/** Every rule id the outline rules report for SysRS, with what it checks. */
export const SYSRS_OUTLINE_RULES: Readonly<Record<string, string>> = Object.fromEntries(outlineRules('sysrs', true).map((r) => [r.id, r.description]));

/**
 * Checks a SysRS body against the outline and parses it into the body model.
 * body = file text after the frontmatter; bodyLineOffset = number of file lines before it;
 * table = null for English, else the variant's heading table.
 * limit: keep only the diagnostics a result shows (the first `limit` by position, sorted as in a
 * result); without it, every diagnostic, sorted by position, then in rule order and the order found.
 * Outline data that schemas/outline.schema.json (or the compile) refuses throws an OutlineDataError.
 */
export function checkSysrsBody(body: string, bodyLineOffset: number, outline: unknown, table: HeadingTable | null, limit?: number): SysrsBodyCheck {
  const offset = Number.isInteger(bodyLineOffset) && bodyLineOffset > 0 ? bodyLineOffset : 0;
  const compiled = compileOutline(checkOutlineData(outline), table);
  return checkOutlineBody(typeof body === 'string' ? body : '', offset, compiled, { prefix: 'sysrs', name: SYSRS_OUTLINE_NAME, ...(limit === undefined ? {} : { limit }) });
}
