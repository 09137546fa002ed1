// Turns the JSON Schemas TypeBox emits (2020-12 flavour) into OpenAPI 3.0.3 Schema Objects for the served description.
type Json = Record<string, unknown>;

/** Keywords an OpenAPI 3.0 Schema Object knows; anything else (besides `x-` extensions) is dropped, since 3.0 validators reject it. */
const KEEP = new Set([
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'example',
  'deprecated',
  '$ref',
]);

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const isNullSchema = (v: unknown): boolean => isObject(v) && (v['type'] === 'null' || (v['const'] === null && v['type'] === undefined));

/** Converts one JSON Schema into an OpenAPI 3.0.3 Schema Object; the input is left untouched. */
export function toOpenApi30(schema: unknown): object {
  // Boolean schemas have no 3.0 spelling: `true` accepts anything, `false` nothing.
  if (schema === true || schema === undefined) return {};
  if (schema === false) return { not: {} };
  if (!isObject(schema)) return {};

  const union = schema['anyOf'] !== undefined ? 'anyOf' : schema['oneOf'] !== undefined ? 'oneOf' : undefined;
  if (union !== undefined && Array.isArray(schema[union])) {
    const branches = schema[union] as unknown[];
    if (branches.some(isNullSchema))
      return nullableUnion(
        schema,
        union,
        branches.filter((b) => !isNullSchema(b)),
      );
    const merged = literalUnion(schema, union, branches);
    if (merged) return merged;
  }

  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && Array.isArray(value)) continue;
    if (KEEP.has(key) || key.startsWith('x-')) out[key] = convertKeyword(key, value);
  }

  if ('const' in schema) {
    out['enum'] = [schema['const']];
    if (schema['const'] === null) out['nullable'] = true;
  }
  if (out['example'] === undefined && Array.isArray(schema['examples']) && schema['examples'].length > 0) {
    out['example'] = schema['examples'][0];
  }

  // 2019+ numeric exclusive bounds become the 3.0 boolean flag next to minimum/maximum.
  for (const [excl, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[excl] === 'number') {
      out[bound] = schema[excl];
      out[excl] = true;
    }
  }

  if (out['type'] === 'null') {
    delete out['type'];
    out['nullable'] = true;
    out['enum'] = [null];
  }
  if (Array.isArray(schema['type'])) applyTypeList(out, schema['type'] as unknown[]);

  tupleItems(schema, out);
  patternProperties(schema, out);

  if (Array.isArray(out['required']) && out['required'].length === 0) delete out['required'];
  if (Array.isArray(out['enum']) && out['enum'].length === 0) delete out['enum'];
  return out;
}

function convertKeyword(key: string, value: unknown): unknown {
  switch (key) {
    case 'properties':
      return isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toOpenApi30(v)])) : value;
    case 'items':
      // Tuple form is handled by tupleItems; here only the single-schema form.
      return Array.isArray(value) ? {} : toOpenApi30(value);
    case 'additionalProperties':
      return typeof value === 'boolean' ? value : toOpenApi30(value);
    case 'not':
      return toOpenApi30(value);
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return Array.isArray(value) ? value.map((v) => toOpenApi30(v)) : value;
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return typeof value === 'boolean' ? value : undefined;
    case 'required':
    case 'enum':
      return Array.isArray(value) ? [...value] : value;
    default:
      return structuredCloneJson(value);
  }
}

/** `anyOf: [X, null]` → X with `nullable: true`; several non-null branches keep the union, each branch nullable. */
function nullableUnion(schema: Json, union: 'anyOf' | 'oneOf', rest: unknown[]): object {
  const outer = toOpenApi30(withoutKey(schema, union)) as Json;
  if (rest.length === 0) return { ...outer, nullable: true, enum: [null] };
  if (rest.length > 1) {
    const merged = literalUnion({}, union, rest) as Json | undefined;
    if (merged) return { ...outer, ...merged, nullable: true };
    // `nullable` needs a sibling `type` in 3.0 (a bare one on the union is refused by linters): each branch carries it.
    return { ...outer, [union]: rest.map((b) => nullableBranch(toOpenApi30(b) as Json)) };
  }
  const only = toOpenApi30(rest[0]) as Json;
  // A $ref ignores its siblings in 3.0, so the nullable flag needs an allOf wrapper.
  if (only['$ref'] !== undefined) return { ...outer, allOf: [only], nullable: true };
  return { ...outer, ...only, nullable: true };
}

/** One branch of a union that also admits null: typed branches gain `nullable`, a $ref is wrapped to carry it. */
function nullableBranch(b: Json): Json {
  if (b['$ref'] !== undefined) return { allOf: [b], nullable: true };
  if (b['type'] !== undefined) return { ...b, nullable: true };
  return b;
}

/** A union of literals of one type (TypeBox's `Union([Literal('a'), Literal('b')])`) reads better as one enum. */
function literalUnion(schema: Json, union: 'anyOf' | 'oneOf', branches: unknown[]): object | undefined {
  if (branches.length === 0) return undefined;
  const values: unknown[] = [];
  let type: unknown;
  for (const b of branches) {
    if (!isObject(b) || !('const' in b)) return undefined;
    const extra = Object.keys(b).filter((k) => k !== 'const' && k !== 'type' && k !== 'description' && k !== 'title');
    if (extra.length > 0) return undefined;
    if (b['type'] !== undefined) {
      if (type !== undefined && type !== b['type']) return undefined;
      type = b['type'];
    }
    values.push(b['const']);
  }
  const outer = toOpenApi30(withoutKey(schema, union)) as Json;
  return type === undefined ? { ...outer, enum: values } : { ...outer, type, enum: values };
}

/** `type: ['string', 'null']` → `type: string, nullable: true`; several real types become an anyOf. */
function applyTypeList(out: Json, types: unknown[]): void {
  const real = types.filter((t) => t !== 'null');
  if (types.length !== real.length) out['nullable'] = true;
  if (real.length === 1) out['type'] = real[0];
  else if (real.length > 1) out['anyOf'] = real.map((t) => ({ type: t }));
}

/** 3.0 has no tuples: positional items collapse to "any of these", with the length bounds kept. */
function tupleItems(schema: Json, out: Json): void {
  const positional = Array.isArray(schema['prefixItems'])
    ? (schema['prefixItems'] as unknown[])
    : Array.isArray(schema['items'])
      ? (schema['items'] as unknown[])
      : undefined;
  if (positional === undefined) return;
  out['items'] = positional.length === 1 ? toOpenApi30(positional[0]) : { anyOf: positional.map((p) => toOpenApi30(p)) };
}

/** TypeBox Records use patternProperties, which 3.0 lacks; one pattern maps onto additionalProperties. */
function patternProperties(schema: Json, out: Json): void {
  const pp = schema['patternProperties'];
  if (!isObject(pp)) return;
  const values = Object.values(pp);
  if (values.length === 1 && out['additionalProperties'] === undefined) out['additionalProperties'] = toOpenApi30(values[0]);
  else if (out['additionalProperties'] === false) delete out['additionalProperties'];
}

function withoutKey(schema: Json, key: string): Json {
  const copy: Json = { ...schema };
  delete copy[key];
  return copy;
}

function structuredCloneJson(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
