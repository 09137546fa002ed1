// Actions for the program: sources, the mixer and T-bar, the clip transport, tempo and the global controls. Each one
// is a POST to the vjd route of the same name; the effect, layer, scene and output actions are in actions-fx.ts.
import type {
  CompanionActionDefinitions,
  CompanionInputFieldDropdown,
  DropdownChoice,
  SomeCompanionActionInputField,
} from '@companion-module/base';
import type { Choices } from './choices.js';
import type { VjdHttp } from './http.js';
import type { VjdState } from './state.js';

export interface ActionContext {
  http: VjdHttp;
  choices: Choices;
  state: VjdState;
}

export function pickList(id: string, label: string, choices: DropdownChoice[]): CompanionInputFieldDropdown {
  return { type: 'dropdown', id, label, choices, default: choices[0]?.id ?? '', allowCustom: true };
}

export const onOffToggle: CompanionInputFieldDropdown = {
  type: 'dropdown',
  id: 'mode',
  label: 'Set',
  default: 'toggle',
  choices: [
    { id: 'on', label: 'On' },
    { id: 'off', label: 'Off' },
    { id: 'toggle', label: 'Toggle' },
  ],
};

export function transitionFields(c: Choices): SomeCompanionActionInputField[] {
  return [
    { ...pickList('transition', 'Transition', [{ id: '', label: "The mixer's" }, ...c.transitions]), default: '' },
    { type: 'number', id: 'durationMs', label: 'Duration (ms, 0 = default)', default: 0, min: 0, max: 10000 },
  ];
}

/** The optional transition fields of a body: left out when the button names none. */
export function withTransition(body: Record<string, unknown>, o: Record<string, any>): Record<string, unknown> {
  if (o.transition) body.transition = String(o.transition);
  if (Number(o.durationMs) > 0) body.durationMs = Number(o.durationMs);
  return body;
}

export function programActions(ctx: ActionContext): CompanionActionDefinitions {
  const { choices: c } = ctx;
  const post = (path: string, body?: unknown) => ctx.http.post(path, body).then(() => undefined);
  return {
    source_select: {
      name: 'Source: select (any source, preset, live input or file)',
      options: [pickList('source', 'Source', c.sources), ...transitionFields(c)],
      callback: (a) => post('/api/v1/sources/select', withTransition({ id: String(a.options.source) }, a.options)),
    },
    live_select: {
      name: 'Source: select live input',
      options: [pickList('id', 'Live input', c.live)],
      callback: (a) => post('/api/v1/inputs/live/select', { id: String(a.options.id) }),
    },
    file_select: {
      name: 'Source: select media file',
      options: [pickList('id', 'Media file', c.files)],
      callback: (a) => post('/api/v1/inputs/file/select', { id: String(a.options.id) }),
    },
    mix_cue: {
      name: 'Mixer: cue a source on preview',
      options: [pickList('source', 'Source', c.sources)],
      callback: (a) => post('/api/v1/mix/cue', { id: String(a.options.source) }),
    },
    mix_take: {
      name: 'Mixer: take (with a transition)',
      options: transitionFields(c),
      callback: (a) => post('/api/v1/mix/take', withTransition({}, a.options)),
    },
    mix_tbar: {
      name: 'Mixer: T-bar position',
      options: [{ type: 'number', id: 'value', label: 'Position (0-1)', default: 0.5, min: 0, max: 1, step: 0.05 }],
      callback: (a) => post('/api/v1/mix/position', { value: Number(a.options.value) }),
    },
    transport: {
      name: 'Transport: play / pause / toggle / restart',
      options: [
        {
          type: 'dropdown',
          id: 'op',
          label: 'Command',
          default: 'toggle',
          choices: ['play', 'pause', 'toggle', 'restart'].map((id) => ({ id, label: id })),
        },
      ],
      callback: (a) => post(`/api/v1/transport/${String(a.options.op)}`, {}),
    },
    transport_seek: {
      name: 'Transport: seek to seconds',
      options: [{ type: 'number', id: 'positionS', label: 'Position (s)', default: 0, min: 0, max: 86400, step: 0.1 }],
      callback: (a) => post('/api/v1/transport/seek', { positionS: Number(a.options.positionS) }),
    },
    transport_cue: {
      name: 'Transport: jump to a cue point',
      options: [{ type: 'textinput', id: 'cue', label: 'Cue point name', default: '' }],
      callback: (a) => post('/api/v1/transport/seek', { cue: String(a.options.cue) }),
    },
    transport_speed: {
      name: 'Transport: speed',
      options: [{ type: 'number', id: 'speed', label: 'Speed', default: 1, min: 0.1, max: 4, step: 0.05 }],
      callback: (a) => post('/api/v1/transport/speed', { speed: Number(a.options.speed) }),
    },
    tempo: {
      name: 'Tempo: tap / resync / ×½ / ×2',
      options: [
        {
          type: 'dropdown',
          id: 'op',
          label: 'Command',
          default: 'tap',
          choices: [
            { id: 'tap', label: 'Tap' },
            { id: 'resync', label: 'Resync (beat 1 now)' },
            { id: 'half', label: '×½' },
            { id: 'double', label: '×2' },
          ],
        },
      ],
      callback: (a) => {
        const op = String(a.options.op);
        if (op === 'half' || op === 'double') return post('/api/v1/tempo/multiply', { factor: op === 'half' ? 0.5 : 2 });
        return post(`/api/v1/tempo/${op === 'resync' ? 'resync' : 'tap'}`);
      },
    },
    blackout: {
      name: 'Global: blackout',
      options: [onOffToggle],
      callback: (a) => {
        const m = String(a.options.mode);
        if (m === 'toggle') return post('/api/v1/actions/global.blackout-toggle');
        return post('/api/v1/global/blackout', { enabled: m === 'on' });
      },
    },
    dimmer: {
      name: 'Global: dimmer',
      options: [{ type: 'number', id: 'value', label: 'Level (0-1)', default: 1, min: 0, max: 1, step: 0.05 }],
      callback: (a) => post('/api/v1/global/dimmer', { value: Number(a.options.value) }),
    },
  };
}
