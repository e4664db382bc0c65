import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { ObjectSchema } from './tool.js';

// One Ajv for every tool's input schema; each schema is compiled once, when the server starts.
const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: false });

export type ArgumentCheck = (args: unknown) => string | null;

function argName(e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, '').split('/').join('.');
  return path === '' ? '' : `'${path}'`;
}

/** One ajv error as a sentence an agent can act on. */
function describe(e: ErrorObject, schema: ObjectSchema): string {
  const allowed = Object.keys(schema.properties ?? {});
  const name = argName(e);
  switch (e.keyword) {
    case 'additionalProperties': {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      const where = name === '' ? '' : ` in ${name}`;
      return `unknown argument '${extra}'${where}; allowed: ${allowed.length > 0 ? allowed.join(', ') : 'none (call with {})'}`;
    }
    case 'required':
      return `missing required argument '${(e.params as { missingProperty: string }).missingProperty}'`;
    case 'type':
      return name === '' ? `arguments must be an object` : `argument ${name} must be of type ${(e.params as { type: string }).type}`;
    default:
      return `argument ${name === '' ? '(root)' : name} ${e.message ?? 'is invalid'}`;
  }
}

/** Compiles an input schema once; the check returns null for valid arguments, else the message. */
export function compileArguments(tool: string, schema: ObjectSchema): ArgumentCheck {
  const validate: ValidateFunction = ajv.compile(schema);
  return (args) => {
    if (validate(args)) return null;
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const e of validate.errors ?? []) {
      const text = describe(e, schema);
      if (!seen.has(text)) {
        seen.add(text);
        parts.push(text);
      }
    }
    return `Invalid arguments for ${tool}: ${parts.join('; ')}.`;
  };
}
