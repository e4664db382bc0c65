/**
 * SysRS's body outline (`schemas/sysrs-outline.json`, docs/formats.md "SysRS") through the generic outline
 * engine (src/parse/outline/, rules in src/rules/outline/): the SysRS names of the body model and
 * the rule ids it reports. docs/sysrs-outline.md documents them.
 */
import type {
  ContainerSection,
  ListItemEntry,
  ListSection,
  OutlineBody,
  ProseSection,
  ReferenceItem,
  ReferencesSection,
  BodySection,
  UpdateItem,
  UpdatesSection,
} from '../../parse/outline/model.js';
import { outlineRules } from '../../rules/outline/index.js';
import type { OutlineBodyCheck } from '../../rules/outline/index.js';

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
