// POST /presets/save: keeps an effect's type and current values as an effect preset file in <dataDir>/presets/,
// which the catalog reads back at once, so the preset is an action (category Effect Presets) when the answer is sent.
import Type from 'typebox';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import type { RenderClient } from '../workers/render-client.js';
import type { CatalogSnapshot } from '../catalog/catalog.js';
import { matchNameIndex, nameKey } from '../shared/names.js';
import { currentValue, settable } from '../shared/param-values.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { ModulatorSchema } from '../modulation/schemas.js';

export interface PresetsDeps {
  render: Pick<RenderClient, 'readChain'>;
  catalog(): CatalogSnapshot;
  /** Rescans the catalog (resolves once the new preset is in it and the actions are rebuilt). */
  reload(): Promise<void>;
  /** `<dataDir>/presets`, also one of the catalog's preset folders. */
  dir: string;
}

const PresetSchema = Type.Object({
  id: Type.String({ description: 'from the name: lower case, runs of other characters as `_`; the action is `preset.<id>`' }),
  name: Type.String(),
  effect: Type.String({ description: 'the effect type it adds' }),
  inputs: Type.Record(Type.String(), Type.Union([Type.Number(), Type.Boolean(), Type.Array(Type.Number())]), {
    description: 'every settable input with its value when saved (events left out)',
  }),
  modulators: Type.Optional(
    Type.Record(Type.String(), ModulatorSchema, {
      description: 'modulated inputs (`input` or `input.component`) → modulator, when it had any',
    }),
  ),
});

const Miss = Type.Object(
  {
    requested: Type.Union([Type.String(), Type.Integer()]),
    available: Type.Optional(Type.Array(Type.String(), { description: 'loaded effect names' })),
    min: Type.Optional(Type.Integer()),
    max: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export function presetRoutes(d: PresetsDeps): RouteDef[] {
  // Saves run one at a time: the taken-name check and the write would otherwise interleave, and two names with one
  // id would both pass the check and the second would replace the first without `overwrite`.
  let saving: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(job: () => Promise<T>): Promise<T> => {
    const run = saving.then(job);
    saving = run.catch(() => undefined);
    return run;
  };
  return [
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/presets/save`,
      auth: 'required',
      operationId: 'savePreset',
      summary: 'Save one chain effect with its current values as an effect preset',
      description:
        'The effect is addressed by `index` or `effect` (display name first, then type; `effect` wins when both are sent); `name` names the preset. ' +
        'The file is `<dataDir>/presets/<id>.json`; the preset is listed by GET /actions under Effect Presets as soon as this answers, and ' +
        'POST /actions/preset.<id> adds the effect with these values and `presetId` <id>. A name (or id) taken: 409 PRESET_EXISTS unless `overwrite: true`. ' +
        'A position miss is 404 with `details.min`/`max`, a name miss 404 with `details.available`.',
      tags: ['effects'],
      feature: 'effect-presets-save',
      schema: {
        body: Type.Intersect([
          Type.Object({
            index: Type.Optional(Type.Integer({ description: '1-based chain position of the effect' })),
            effect: Type.Optional(
              Type.String({ minLength: 1, maxLength: 256, description: 'display name or type of the effect in the chain' }),
            ),
            name: Type.String({
              minLength: 1,
              maxLength: 128,
              pattern: '[A-Za-z0-9]',
              description: 'preset name (at least one letter or digit)',
            }),
            overwrite: Type.Optional(Type.Boolean({ default: false, description: 'replace a preset of that name' })),
          }),
          Type.Union([Type.Object({ index: Type.Unknown() }), Type.Object({ effect: Type.Unknown() })]),
        ]),
      },
      invalid: (_where, problem) =>
        new ApiError(
          'INVALID_REQUEST',
          problem.startsWith('body must have required') ? 'send `name` (preset name) and `index` (integer) or `effect` (string)' : problem,
        ),
      responses: { 200: { description: 'the saved preset', schema: Type.Object({ success: Type.Literal(true), preset: PresetSchema }) } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'PRESET_EXISTS', 'CHAIN_BUSY'],
      errorDetails: { ITEM_NOT_FOUND: Miss },
      handler: (req) =>
        oneAtATime(async () => {
          const { index, effect, overwrite } = req.body;
          const name = req.body.name.trim();
          const snap = d.render.readChain();
          let at: number;
          if (effect !== undefined) {
            at = matchNameIndex(snap.items, effect, [(i) => i.name, (i) => i.type]);
            if (at < 0)
              throw new ApiError('ITEM_NOT_FOUND', `no loaded effect is named "${effect.slice(0, 80)}"`, {
                requested: effect,
                available: snap.items.map((i) => i.name),
              });
          } else {
            at = (index ?? 0) - 1;
            const max = snap.items.length;
            if (at < 0 || at >= max)
              throw new ApiError(
                'ITEM_NOT_FOUND',
                `nothing at position ${index}: ${max === 0 ? 'the chain is empty' : `positions are 1 to ${max}`}`,
                { requested: index ?? 0, min: 1, max },
              );
          }
          const item = snap.items[at]!;
          const entry = snap.entries[at]!;
          // The id is the whole name as a slug, never parsed as a file name: a dot or slash in a name is not an
          // extension or a folder, and two names differing after one must not land in the same file.
          let id = name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '_')
            .replace(/^_+|_+$/g, '');
          if (id === '') throw new ApiError('INVALID_REQUEST', 'body.name must hold a letter or a digit');
          const cat = d.catalog();
          const taken = cat.effectPresets.find((p) => p.id === id || nameKey(p.name) === nameKey(name));
          if (taken && overwrite !== true) {
            throw new ApiError(
              'PRESET_EXISTS',
              `an effect preset named "${taken.name}" (id ${taken.id}) exists; send overwrite: true to replace it`,
            );
          }
          // Overwriting keeps the existing preset's id, so its action id and the chain items carrying it stay valid.
          if (taken) id = taken.id;
          const desc = cat.effects.find((e) => e.type === item.type);
          const inputs: Record<string, unknown> = {};
          for (const i of desc?.inputs ?? []) {
            if (settable(i) && i.type !== 'event') inputs[i.name] = currentValue(i, entry.inputs[i.name]);
          }
          const modulators = entry.modulators && Object.keys(entry.modulators).length > 0 ? entry.modulators : undefined;
          const file = { name, effect: item.type, inputs, ...(modulators ? { modulators } : {}) };
          await mkdir(d.dir, { recursive: true });
          await atomicWriteFile(join(d.dir, `${id}.json`), `${JSON.stringify(file, null, 2)}\n`);
          await d.reload();
          return { json: { success: true, preset: { id, ...file } } };
        }),
    }),
  ];
}
