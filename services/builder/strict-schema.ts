/**
 * A zod-made JSON schema in the subset OpenAI's structured outputs accept with `strict: true`: every object closed
 * (`additionalProperties: false`) with every property required, an optional property made nullable instead (null
 * standing for "left out": {@link withoutNulls} turns it back), `anyOf` for `oneOf`, and no keywords strict mode
 * refuses (`default`, string lengths, `$schema`). What the subset cannot say (lengths, defaults) the operations' zod
 * parse still enforces on the answer.
 */

type Json = Record<string, unknown>;

/** Keywords strict mode does not take; zod checks them when the answer is parsed. */
const DROPPED = new Set(['$schema', 'default', 'minLength', 'maxLength', 'format']);

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `schema` that may also be null. */
function nullable(schema: Json): Json {
  if (typeof schema.type === 'string' && schema.type !== 'null' && !('const' in schema) && !('enum' in schema)) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** The strict form of a JSON schema (see the module doc). */
export function strictJsonSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (key === 'oneOf' || key === 'anyOf' || key === 'allOf' || key === 'prefixItems') {
      out[key === 'oneOf' ? 'anyOf' : key] = (value as Json[]).map(strictJsonSchema);
    } else if (key === 'items' && isObject(value)) {
      out.items = strictJsonSchema(value);
    } else if (key !== 'properties' && key !== 'required' && key !== 'additionalProperties') {
      out[key] = value;
    }
  }
  if (isObject(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const properties: Json = {};
    for (const [name, sub] of Object.entries(schema.properties)) {
      const strict = strictJsonSchema(sub as Json);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/**
 * An answered value with null-valued object properties removed, at every depth (arrays keep their items): strict
 * mode's null for a property that was left out, read back as left out, so zod's defaults and optionals apply.
 */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null) continue;
    Object.defineProperty(out, k, { value: withoutNulls(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
