import { duplicateKey } from './duplicate-key.js';
import { frontmatterNotMapping } from './frontmatter-not-mapping.js';
import { frontmatterUnterminated } from './frontmatter-unterminated.js';
import { yamlAlias } from './yaml-alias.js';
import { yamlSyntax } from './yaml-syntax.js';
import { yamlUnquotedTimestamp } from './yaml-unquoted-timestamp.js';

/** The rules of YAML frontmatter (every markdown kind with a frontmatter schema). */
export const FRONTMATTER_RULES = [frontmatterUnterminated, frontmatterNotMapping, yamlSyntax, yamlAlias, yamlUnquotedTimestamp] as const;
export { duplicateKey };
