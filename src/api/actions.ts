// Actions routes: GET /actions lists every action {id, name, category}; POST /actions/{id} triggers one with the
// same rules, errors and answers as the route it stands for (effects/add, sources/select, palettes, global).
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { notFound } from '../errors.js';
import { LIMITS, NOT_FOUND_AVAILABLE_MAX } from '../limits.js';
import { CATEGORIES, dimmerAfter, type Action } from '../actions/registry.js';
import type { RenderClient } from '../workers/render-client.js';
import type { SourceManager } from '../sources/source-manager.js';
import type { Mixer } from '../sources/mixer.js';
import { paletteView, type PaletteSelection } from '../palettes/selection.js';
import { ChainItemSchema } from './effects.js';
import { CurrentSourceSchema } from './sources.js';
import { PaletteSchema } from './palettes.js';
import { GlobalBody } from './global.js';
import { MixSchema } from './mix.js';
import type { StateStore } from '../state/store.js';
import type { AudioService } from '../audio/service.js';
import type { Tempo } from '../tempo/types.js';
import { TempoViewSchema } from './tempo.js';
import type { TransportService } from '../transport/service.js';
import { TransportViewSchema } from './transport.js';
import { SceneViewSchema, sceneView } from './scenes.js';
import type { Scenes } from '../scenes/service.js';

export interface ActionDeps {
  actions(): readonly Action[];
  render: Pick<RenderClient, 'chain'>;
  ceiling(): number;
  sources: Pick<SourceManager, 'select'>;
  mixer: Pick<Mixer, 'take' | 'endTransition'>;
  palettes: Pick<PaletteSelection, 'select' | 'next'>;
  state: StateStore;
  applyGlobal(blackout: boolean, dimmer: number): void;
  tempo: Pick<Tempo, 'tap' | 'resync' | 'multiply' | 'setSource'>;
  audio: Pick<AudioService, 'resolve' | 'select'>;
  transport: Pick<TransportService, 'play' | 'pause' | 'toggle' | 'restart' | 'seek'>;
  /** Freeze and release of every modulator; without it the modulation actions are not offered. */
  modulation?: ModulationFreeze;
  scenes: Pick<Scenes, 'find' | 'recall'>;
}

/** What the modulation actions drive: the same freeze as POST /modulation/freeze. */
export interface ModulationFreeze {
  frozen(): boolean;
  setFrozen(enabled: boolean): Promise<{ frozen: boolean }> | { frozen: boolean };
}

const Frozen = Type.Object({ frozen: Type.Boolean({ description: 'whether every modulated input is held (modulation actions)' }) });

const AudioChoice = Type.Object({
  current: Type.Union([Type.String(), Type.Null()], { description: 'the selected audio input; null: none' }),
});

const ActionSchema = Type.Object({
  id: Type.String({
    description:
      '`preset.<presetId>`, `source.<sourceId>`, `mix.take`, `mix.take.<transition>`, `palette.<paletteId>`, `palette.next`, `global.<control>`, `tempo.tap|resync|half|double`, `modulation.freeze|release|toggle`, `audio.<inputId>`, `audio.none`, `transport.play|pause|toggle|restart` or `transport.cue.<name>`',
  }),
  name: Type.String(),
  category: Type.String({ description: CATEGORIES.map((c) => `\`${c}\``).join(', ') }),
});

const DESCRIPTION = [
  'Triggers one action. The body is ignored (send none). The answer is `{success: true, action, result}` where `result` is what the equivalent route answers:',
  "- **Effect Presets** (`preset.<id>`): adds the preset's effect with its saved input values, appended enabled, like POST /effects/add (never idempotent); `result` is the chain item, whose `presetId` is the preset id. Same 403 EFFECT_LIMIT_REACHED, 500 EFFECT_LOAD_FAILED and 503 CHAIN_BUSY rules.",
  '- **Sources** (`source.<sourceId>`): selects the source like POST /sources/select; `result` is the current source. 500 SOURCE_LOAD_FAILED and 504 ACTIVATION_TIMEOUT as there.',
  "- **Mix** (`mix.take` with the mixer's transition, `mix.take.<transition>` with that one and the mixer's duration): a take like POST /mix/take; `result` is the mixer (GET /mix). 409 NOTHING_CUED and 500 TRANSITION_LOAD_FAILED as there.",
  '- **Palettes** (`palette.<id>`, `palette.next`): selects a palette or the next one (wrapping); `result` is the palette. `palette.next` with an empty library: 404 NO_CURRENT_PALETTE.',
  '- **Global** (`global.blackout-on|off|toggle`, `global.dimmer-up|down` by 0.1, `global.dimmer-full|zero`): `result` is `{blackout, dimmer}`.',
  '- **Tempo** (`tempo.tap`, `tempo.resync`, `tempo.half`, `tempo.double`): like POST /tempo/tap, /tempo/resync and /tempo/multiply; `result` is the tempo (GET /tempo). A Stream Deck button through Companion taps with `tempo.tap`.',
  '- **Modulation** (`modulation.freeze`, `modulation.release`, `modulation.toggle`): holds every modulated input at its applied value, lets them run on in phase, or flips between the two, like POST /modulation/freeze; `result` is `{frozen}`.',
  '- **Audio** (`audio.<inputId>`, `audio.none`): selects that audio input or none, like POST /audio/select (saved); `result` is `{current}`.',
  "- **Transport** (`transport.play`, `transport.pause`, `transport.toggle`, `transport.restart`, and `transport.cue.<name>` for each cue point of the clip on the program bus): like POST /transport/play, /pause, /toggle, /restart and /transport/seek `{cue}` on the program bus; `result` is the clip's transport. 409 NOT_A_CLIP and 504 ACTIVATION_TIMEOUT as there.",
  '- **Scenes** (`scene.<sceneId>`): recalls the scene with a cut, like POST /scenes/recall `{id}`; `result` is the scene. 504 ACTIVATION_TIMEOUT as there.',
  `Unknown id (or longer than ${LIMITS.selectIdMaxLength} characters): 404 ITEM_NOT_FOUND with \`details {requested, kind: "action", available}\` (at most ${NOT_FOUND_AVAILABLE_MAX} ids).`,
].join('\n\n');

export function actionRoutes(d: ActionDeps): RouteDef[] {
  const offered = (): readonly Action[] => (d.modulation ? d.actions() : d.actions().filter((a) => a.target.kind !== 'modulation'));
  const run = async (a: Action, started: number): Promise<unknown> => {
    const t = a.target;
    switch (t.kind) {
      case 'effect-preset':
        return d.render.chain(
          {
            op: 'add',
            type: t.preset.effect,
            idempotent: false,
            ceiling: d.ceiling(),
            presetId: t.preset.id,
            inputs: { ...t.preset.inputs },
            ...(t.preset.modulators ? { modulators: t.preset.modulators } : {}),
          },
          started,
        );
      case 'source':
        await d.mixer.endTransition();
        return d.sources.select(t.entry, started);
      case 'take':
        return d.mixer.take(t.transition === null ? {} : { transition: t.transition });
      case 'palette':
        return paletteView(d.palettes.select(t.palette));
      case 'palette-next':
        return paletteView(d.palettes.next());
      case 'tempo':
        if (t.op === 'tap') return d.tempo.tap();
        if (t.op === 'resync') return d.tempo.resync();
        if (t.op === 'auto') return d.tempo.setSource('auto');
        return d.tempo.multiply(t.op === 'half' ? 0.5 : 2);
      case 'audio': {
        const input = t.input === null ? null : d.audio.resolve({ id: t.input });
        await d.audio.select(input);
        return { current: input?.id ?? null };
      }
      case 'transport':
        return d.transport[t.op]('program');
      case 'transport-cue':
        return d.transport.seek('program', { cue: t.cue });
      case 'scene': {
        const scene = d.scenes.find({ id: t.scene });
        await d.scenes.recall(scene, { ceiling: d.ceiling() });
        return sceneView(scene);
      }
      case 'modulation': {
        const m = d.modulation!;
        return m.setFrozen(t.op === 'toggle' ? !m.frozen() : t.op === 'freeze');
      }
      case 'blackout':
      case 'dimmer': {
        d.state.update((s) => {
          if (t.kind === 'blackout') s.blackout = t.mode === 'toggle' ? !s.blackout : t.mode === 'on';
          else s.dimmer = dimmerAfter(t.mode, s.dimmer);
        });
        const s = d.state.peek();
        d.applyGlobal(s.blackout, s.dimmer);
        return { blackout: s.blackout, dimmer: s.dimmer };
      }
    }
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/actions`,
      auth: 'required',
      operationId: 'listActions',
      summary: 'Every action, in category order: Effect Presets, Sources, Mix, Palettes, Global, Tempo, Modulation, Audio, Transport',
      tags: ['actions'],
      feature: 'actions',
      schema: {},
      responses: {
        200: { description: 'the actions', schema: Type.Object({ count: Type.Integer({ minimum: 0 }), items: Type.Array(ActionSchema) }) },
      },
      errors: [],
      handler: () => {
        const items = offered().map((a) => ({ id: a.id, name: a.name, category: a.category }));
        return { json: { count: items.length, items } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/actions/:id`,
      auth: 'required',
      operationId: 'triggerAction',
      summary: 'Trigger one action',
      description: DESCRIPTION,
      tags: ['actions'],
      feature: 'actions',
      schema: { params: Type.Object({ id: Type.String({ description: 'action id from GET /actions' }) }) },
      emptyBody: true,
      responses: {
        200: {
          description: 'the action ran',
          schema: Type.Object({
            success: Type.Literal(true),
            action: ActionSchema,
            result: Type.Union(
              [
                ChainItemSchema,
                CurrentSourceSchema,
                MixSchema,
                PaletteSchema,
                GlobalBody,
                TempoViewSchema,
                AudioChoice,
                Frozen,
                TransportViewSchema,
                SceneViewSchema,
              ],
              {
                description:
                  "what the equivalent route answers: the chain item, the current source, the mixer, the palette, `{blackout, dimmer}`, the tempo, `{current}` (audio), `{frozen}` (modulation), the clip's transport or the recalled scene",
              },
            ),
          }),
        },
      },
      errors: [
        'ITEM_NOT_FOUND',
        'EFFECT_LIMIT_REACHED',
        'EFFECT_LOAD_FAILED',
        'CHAIN_BUSY',
        'NO_CURRENT_PALETTE',
        'SOURCE_LOAD_FAILED',
        'TRANSITION_LOAD_FAILED',
        'ACTIVATION_TIMEOUT',
        'NOTHING_CUED',
        'NOT_A_CLIP',
      ],
      handler: async (req) => {
        const started = Date.now();
        const id = req.params.id;
        const all = offered();
        const action = id.length <= LIMITS.selectIdMaxLength ? all.find((a) => a.id === id) : undefined;
        if (!action) {
          throw notFound(
            'action',
            id,
            all.map((a) => a.id),
            'no action has the id',
          );
        }
        const result = await run(action, started);
        return { json: { success: true, action: { id: action.id, name: action.name, category: action.category }, result } };
      },
    }),
  ];
}
