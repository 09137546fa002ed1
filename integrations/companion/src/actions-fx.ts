// Actions for the chain, layers, scenes, palettes, outputs and vjd's own action list (effect presets and the rest).
import type { CompanionActionDefinitions } from '@companion-module/base';
import { type ActionContext, onOffToggle, pickList, transitionFields, withTransition } from './actions.js';
import type { VjdHttp } from './http.js';

/** An effect option is a chain name or a 1-based position; the params routes take the position. */
async function effectIndex(http: VjdHttp, effect: string): Promise<number> {
  if (/^\d+$/.test(effect.trim())) return Number(effect);
  const chain = await http.get('/api/v1/effects');
  const key = effect
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  const hit = chain.items.find((e: any) =>
    [e.name, e.type].some(
      (n) =>
        String(n)
          .toLowerCase()
          .replace(/[\s_-]+/g, ' ') === key,
    ),
  );
  if (!hit) throw new Error(`effect "${effect}" is not in the chain`);
  return hit.index;
}

/** The flag to send for an on/off/toggle option, reading the current one only for a toggle. */
async function flag(mode: unknown, current: () => Promise<boolean>): Promise<boolean> {
  if (mode === 'on') return true;
  if (mode === 'off') return false;
  return !(await current());
}

export function fxActions(ctx: ActionContext): CompanionActionDefinitions {
  const { choices: c } = ctx;
  const post = (path: string, body?: unknown) => ctx.http.post(path, body).then(() => undefined);
  const layerState = async (n: number) => (await ctx.http.get('/api/v1/layers')).layers.find((l: any) => l.layer === n);
  const effectOpt = pickList('effect', 'Effect (name in the chain, or position)', c.chain);
  const layerOpt = { ...pickList('layer', 'Layer', c.layers), default: 1 };
  return {
    effect_add: {
      name: 'Effect: add to the chain',
      options: [
        pickList('type', 'Effect', c.effectTypes),
        { type: 'checkbox', id: 'idempotent', label: 'Only if not in the chain', default: true },
      ],
      callback: (a) => post('/api/v1/effects/add', { type: String(a.options.type), idempotent: a.options.idempotent === true }),
    },
    effect_toggle: {
      name: 'Effect: toggle',
      options: [effectOpt],
      callback: (a) => post('/api/v1/effects/toggle', { name: String(a.options.effect) }),
    },
    effect_enabled: {
      name: 'Effect: enable / disable',
      options: [effectOpt, { ...onOffToggle, default: 'on' }],
      callback: async (a) => {
        const name = String(a.options.effect);
        if (a.options.mode === 'toggle') return post('/api/v1/effects/toggle', { name });
        return post('/api/v1/effects/enabled', { name, enabled: a.options.mode === 'on' });
      },
    },
    effect_param: {
      name: 'Effect: set or nudge a parameter',
      options: [
        effectOpt,
        { type: 'textinput', id: 'input', label: 'Parameter (ISF input name)', default: '' },
        {
          type: 'dropdown',
          id: 'op',
          label: 'Operation',
          default: 'set',
          choices: [
            { id: 'set', label: 'Set to' },
            { id: 'add', label: 'Increase by (negative: decrease)' },
          ],
        },
        { type: 'number', id: 'value', label: 'Value', default: 0.1, min: -1e6, max: 1e6, step: 0.01 },
      ],
      callback: async (a) => {
        const index = await effectIndex(ctx.http, String(a.options.effect));
        const input = String(a.options.input);
        let value = Number(a.options.value);
        if (a.options.op === 'add') {
          const item = (await ctx.http.get(`/api/v1/effects/${index}`)).inputs.find((i: any) => i.name === input);
          if (!item || typeof item.value !== 'number') throw new Error(`no number input "${input}"`);
          value = Math.min(item.max ?? Number.POSITIVE_INFINITY, Math.max(item.min ?? Number.NEGATIVE_INFINITY, item.value + value));
        }
        return post('/api/v1/effects/params', { index, values: { [input]: value } });
      },
    },
    freeze: {
      name: 'Modulation: freeze / release',
      options: [{ ...onOffToggle, label: 'Freeze' }],
      callback: (a) => post(`/api/v1/actions/modulation.${{ on: 'freeze', off: 'release' }[String(a.options.mode)] ?? 'toggle'}`),
    },
    layer_opacity: {
      name: 'Layer: opacity',
      options: [layerOpt, { type: 'number', id: 'value', label: 'Opacity (0-1)', default: 1, min: 0, max: 1, step: 0.05 }],
      callback: (a) => post('/api/v1/layers/opacity', { layer: Number(a.options.layer), value: Number(a.options.value) }),
    },
    layer_mute: {
      name: 'Layer: mute',
      options: [layerOpt, onOffToggle],
      callback: async (a) => {
        const layer = Number(a.options.layer);
        const enabled = await flag(a.options.mode, async () => (await layerState(layer))?.mute === true);
        return post('/api/v1/layers/mute', { layer, enabled });
      },
    },
    layer_solo: {
      name: 'Layer: solo',
      options: [layerOpt, onOffToggle],
      callback: async (a) => {
        const layer = Number(a.options.layer);
        const enabled = await flag(a.options.mode, async () => (await layerState(layer))?.solo === true);
        return post('/api/v1/layers/solo', { layer, enabled });
      },
    },
    layer_select: {
      name: 'Layer: select (sources, mixer and transport act on it)',
      options: [layerOpt],
      callback: (a) => post('/api/v1/layers/select', { layer: Number(a.options.layer) }),
    },
    scene_recall: {
      name: 'Scene: recall',
      options: [pickList('scene', 'Scene', c.scenes), ...transitionFields(c)],
      callback: (a) => post('/api/v1/scenes/recall', withTransition({ id: String(a.options.scene) }, a.options)),
    },
    scene_save: {
      name: 'Scene: save the current stack',
      options: [{ type: 'textinput', id: 'name', label: 'Scene name', default: 'Scene' }],
      callback: (a) => post('/api/v1/scenes/save', { name: String(a.options.name) }),
    },
    palette_next: { name: 'Palette: next', options: [], callback: () => post('/api/v1/palettes/next') },
    palette_select: {
      name: 'Palette: select',
      options: [pickList('palette', 'Palette', c.palettes)],
      callback: (a) => post('/api/v1/palettes/select', { id: String(a.options.palette) }),
    },
    run_action: {
      name: 'vjd action (effect presets, sources, palettes, global, tempo, …)',
      options: [pickList('action', 'Action', c.actions)],
      callback: (a) => post(`/api/v1/actions/${encodeURIComponent(String(a.options.action))}`),
    },
    output_enabled: {
      name: 'Output / recording: on / off',
      options: [pickList('output', 'Output', c.outputs), onOffToggle],
      callback: async (a) => {
        const name = String(a.options.output);
        const enabled = await flag(a.options.mode, async () => {
          const o = (await ctx.http.get('/api/v1/outputs')).items.find((x: any) => x.name === name || x.id === name);
          return o?.enabled === true;
        });
        return post('/api/v1/outputs/enabled', { name, enabled });
      },
    },
  };
}
