import { emptyValue } from './empty-value.js';
import { invalidValue } from './invalid-value.js';
import { missingKey } from './missing-key.js';
import { schemaRule } from './schema.js';
import { unknownKey } from './unknown-key.js';
import { wrongType } from './wrong-type.js';

/** The rules that turn what a JSON Schema found into messages (each a family of ajv keywords). */
export const SCHEMA_RULES = [missingKey, unknownKey, wrongType, emptyValue, invalidValue, schemaRule] as const;
