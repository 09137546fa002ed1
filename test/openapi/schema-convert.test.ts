// Checks the TypeBox JSON Schema → OpenAPI 3.0 conversion used by the served description.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import Type from 'typebox';
import { toOpenApi30 } from '../../src/openapi/schema-convert.js';

const plain = (s: unknown): unknown => JSON.parse(JSON.stringify(s));

test('const becomes a single-value enum', () => {
  assert.equal(toOpenApi30(plain(Type.Literal('png'))), { type: 'string', enum: ['png'] });
  assert.equal(toOpenApi30({ const: true }), { enum: [true] });
});

test('a union of literals becomes one enum', () => {
  assert.equal(toOpenApi30(plain(Type.Union([Type.Literal('png'), Type.Literal('jpg')]))), { type: 'string', enum: ['png', 'jpg'] });
});

test('anyOf with null becomes the other branch plus nullable', () => {
  const s = plain(Type.Union([Type.String({ minLength: 1 }), Type.Null()], { description: 'parent' }));
  assert.equal(toOpenApi30(s), { description: 'parent', type: 'string', minLength: 1, nullable: true });
  assert.equal(toOpenApi30({ oneOf: [{ type: 'null' }, { $ref: '#/components/schemas/X' }] }), {
    allOf: [{ $ref: '#/components/schemas/X' }],
    nullable: true,
  });
  const many = toOpenApi30({ anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] });
  // `nullable` sits beside a `type` (OpenAPI 3.0 linters refuse it alone on a union).
  assert.equal(many, {
    anyOf: [
      { type: 'string', nullable: true },
      { type: 'integer', nullable: true },
    ],
  });
});

test('type arrays with null become type plus nullable', () => {
  assert.equal(toOpenApi30({ type: ['integer', 'null'], minimum: 0 }), { minimum: 0, nullable: true, type: 'integer' });
  assert.equal(toOpenApi30({ type: 'null' }), { nullable: true, enum: [null] });
});

test('keywords 3.0 lacks are dropped; examples becomes example', () => {
  const out = toOpenApi30({
    $id: 'Thing',
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $defs: { a: { type: 'string' } },
    type: 'object',
    unevaluatedProperties: false,
    examples: [{ a: 1 }, { a: 2 }],
    properties: { a: { type: 'number', exclusiveMinimum: 0 } },
    'x-vjd': 1,
  });
  assert.equal(out, {
    type: 'object',
    properties: { a: { type: 'number', minimum: 0, exclusiveMinimum: true } },
    'x-vjd': 1,
    example: { a: 1 },
  });
});

test('nested properties, items and additionalProperties are converted', () => {
  const s = plain(
    Type.Object({
      list: Type.Array(Type.Object({ kind: Type.Literal('folder'), parent: Type.Union([Type.String(), Type.Null()]) })),
      map: Type.Record(Type.String(), Type.Literal(1)),
      pair: Type.Tuple([Type.String(), Type.Number()]),
    }),
  );
  const out = toOpenApi30(s) as any;
  assert.equal(out.properties.list.items.properties.kind, { type: 'string', enum: ['folder'] });
  assert.equal(out.properties.list.items.properties.parent, { type: 'string', nullable: true });
  assert.equal(out.properties.map.additionalProperties, { type: 'number', enum: [1] });
  assert.is(out.properties.map.patternProperties, undefined);
  assert.equal(out.properties.pair.items, { anyOf: [{ type: 'string' }, { type: 'number' }] });
  assert.is(out.properties.pair.additionalItems, undefined);
  assert.equal(out.required, ['list', 'map', 'pair']);
});

test('allOf, not and boolean schemas', () => {
  assert.equal(toOpenApi30({ allOf: [{ const: 'a' }], not: { const: null } }), {
    allOf: [{ enum: ['a'] }],
    not: { enum: [null], nullable: true },
  });
  assert.equal(toOpenApi30(true), {});
  assert.equal(toOpenApi30(false), { not: {} });
  assert.equal(toOpenApi30({ type: 'object', required: [] }), { type: 'object' });
});

test('the input is never mutated', () => {
  const s = Type.Object({
    a: Type.Optional(Type.Union([Type.Literal('x'), Type.Null()], { examples: ['x'] })),
    b: Type.Array(Type.Integer({ exclusiveMaximum: 10 }), { $id: 'B' }),
    c: Type.Record(Type.String(), Type.Boolean()),
  });
  const before = JSON.stringify(s);
  const frozen = structuredClone(plain(s)) as object;
  deepFreeze(frozen);
  toOpenApi30(s);
  toOpenApi30(frozen);
  assert.is(JSON.stringify(s), before);
});

function deepFreeze(o: unknown): void {
  if (typeof o !== 'object' || o === null) return;
  Object.freeze(o);
  for (const v of Object.values(o)) deepFreeze(v);
}

test.run();
