import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { precompiledModule } from '../project/schemas.js';
import type { ObjectSchema } from './tool.js';

const require = createRequire(import.meta.url);

/** How tool arguments are checked; scripts/build-validators.mjs precompiles every tool's input schema with the same. */
export const ARGUMENT_AJV_OPTIONS = { allErrors: true, strict: true, useDefaults: false } as const;
/** The manifest of the precompiled argument validators, in dist/validators/. */
export const ARGUMENTS_MANIFEST = 'arguments.json';

// One Ajv for every input schema the build did not precompile (none, unless a tool's schema changed
// since the build), made when first needed: its first compile alone took ~70 ms of a fresh server's first call.
let ajv: Ajv2020 | undefined;
function compiler(): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as { Ajv2020: new (o: object) => Ajv2020 };
  return (ajv ??= new Ajv(ARGUMENT_AJV_OPTIONS));
}

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

/**
 * An input schema's check, made once per tool: the validator the build precompiled from exactly this
 * schema, else compiled now. The check returns null for valid arguments, else the message.
 */
export function compileArguments(tool: string, schema: ObjectSchema): ArgumentCheck {
  const module = precompiledModule(JSON.stringify(schema), ARGUMENTS_MANIFEST);
  const validate = module !== undefined ? (require(module) as ValidateFunction) : compiler().compile(schema);
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
