// A DMX frame to requests of the route table: only channels whose value changed since the last applied frame act,
// each as the one request it stands for (a Mapped, as OSC's are), with values normalised to 0..1 as an OSC fader sends them.
import { inputValue, type InputInfo } from '../transports/inputs.js';
import { bad, post, type Mapped } from '../transports/request.js';
import type { ChannelDef, ChannelKind, Personality } from './personality.js';

/** What the mapper may read of the running show, synchronously. */
export interface DmxLookup {
  /** Source ids in GET /sources order. */
  sourceIds(): readonly string[];
  /** Scene ids in GET /scenes order; null where this build has no scenes. */
  sceneIds(): readonly string[] | null;
  /** Transition types in GET /transitions order. */
  transitions(): readonly string[];
  /** A chain with its inputs: the master chain (null) or a layer's; null where the layer does not exist. */
  chain(layer: number | null): ReadonlyArray<{ index: number; inputs: ReadonlyArray<InputInfo> }> | null;
  /** The layer stack; null where this build has one layer only (the program). */
  layers(): { selected: number; count: number } | null;
  blendModes(): readonly string[];
}

const SETTABLE = new Set(['float', 'long', 'bool']);
const HIGH = 128;

/** The chain's settable inputs in order: what the K parameter channels address. */
export function settableInputs(
  chain: ReadonlyArray<{ index: number; inputs: ReadonlyArray<InputInfo> }>,
  max: number,
): Array<{ item: { index: number; inputs: ReadonlyArray<InputInfo> }; name: string }> {
  const out: Array<{ item: { index: number; inputs: ReadonlyArray<InputInfo> }; name: string }> = [];
  for (const item of chain) {
    for (const input of item.inputs) {
      if (out.length >= max) return out;
      if (SETTABLE.has(input.type)) out.push({ item, name: input.name });
    }
  }
  return out;
}

const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** A channel's first value acts only when it asks for something: a level above 0, a switch that is on, never a command. */
function actsAtConnect(def: ChannelDef, value: number): boolean {
  if (def.connect === 'level') return value > 0;
  if (def.connect === 'switch') return value >= HIGH;
  return false;
}

export class FrameMapper {
  constructor(
    private readonly personality: Personality,
    /** 1-based start channel. */
    private readonly address: number,
    private readonly lookup: DmxLookup,
  ) {}

  /**
   * The requests of the changed channels, in channel order; parameter writes are joined per effect. A channel
   * `prev` lacks (a desk's first frame) acts only as its connect rule says; `force` acts whether changed or not.
   */
  map(prev: Buffer | null, cur: Buffer, force: ChannelKind | null = null): Mapped[] {
    const out: Mapped[] = [];
    const params = new Map<string, { path: string; index: number; values: Record<string, unknown> }>();
    const chains = new Map<number | null, ReturnType<typeof settableInputs>>();
    // Blocks of layers the stack does not have act on nothing: no request is made for them.
    const layers = this.lookup.layers()?.count ?? 1;
    for (const def of this.personality.channels) {
      if (def.layer !== null && def.layer > layers) break;
      const at = this.address - 1 + def.offset;
      const end = at + (def.wide ? 2 : 1);
      if (end > cur.length) break;
      const first = prev === null || end > prev.length;
      const forced = def.kind === force;
      const changed = first || prev[at] !== cur[at] || (def.wide && prev[at + 1] !== cur[at + 1]);
      if (!changed && !forced) continue;
      const value = def.wide ? (cur[at]! << 8) | cur[at + 1]! : cur[at]!;
      if (first && !forced && !actsAtConnect(def, value)) continue;
      const rose = prev !== null && at < prev.length && prev[at]! < HIGH && value >= HIGH;
      if (def.kind === 'param') {
        this.param(def, value, params, chains, out);
        continue;
      }
      out.push(...this.channel(def, value, rose, cur));
    }
    for (const p of params.values()) out.push(post(p.path, { index: p.index, values: p.values }));
    return out;
  }

  private param(
    def: ChannelDef,
    value: number,
    params: Map<string, { path: string; index: number; values: Record<string, unknown> }>,
    chains: Map<number | null, ReturnType<typeof settableInputs>>,
    out: Mapped[],
  ): void {
    if (!chains.has(def.layer)) {
      const chain = this.lookup.chain(def.layer);
      chains.set(def.layer, chain ? settableInputs(chain, this.personality.params) : []);
    }
    const target = chains.get(def.layer)![def.slot!];
    // A chain with fewer settable inputs than parameter channels leaves the rest without meaning.
    if (!target) return;
    const v = inputValue(target.item, target.name, { type: 'f', value: value / 255 });
    const path = def.layer === null ? '/effects/params' : `/layers/${def.layer}/effects/params`;
    if (def.layer !== null && this.lookup.layers() === null) return void out.push(bad('layers are not available'));
    const key = `${path}#${target.item.index}`;
    const entry = params.get(key) ?? { path, index: target.item.index, values: {} };
    entry.values[target.name] = v;
    params.set(key, entry);
  }

  private channel(def: ChannelDef, v: number, rose: boolean, cur: Buffer): Mapped[] {
    const n = def.layer ?? 0;
    switch (def.kind) {
      case 'dimmer':
        return [post('/global/dimmer', { value: v / 255 })];
      case 'blackout':
        return [post('/global/blackout', { enabled: v >= HIGH })];
      case 'scene': {
        if (v === 0) return [];
        const ids = this.lookup.sceneIds();
        if (ids === null) return [bad('scenes are not available')];
        const id = ids[v - 1];
        return [id === undefined ? bad(`no scene at position ${v} (1 to ${ids.length})`) : post('/scenes/recall', { id })];
      }
      case 'bpm':
        return v === 0 ? [] : [post('/tempo/bpm', { bpm: round(20 + (v / 65535) * 280, 2) })];
      case 'tap':
        return rose ? [post('/tempo/tap')] : [];
      case 'transitionType':
      case 'transitionDuration':
        return [];
      case 'take':
        return rose ? [post('/mix/take', this.takeBody(def, cur))] : [];
      case 'cueGo':
        return rose ? [post('/cues/go', {})] : [];
      case 'cueBack':
        return rose ? [post('/cues/back', {})] : [];
      case 'source': {
        if (v === 0) return [];
        const ids = this.lookup.sourceIds();
        const id = ids[v - 1];
        if (id === undefined) return [bad(`no source at position ${v} (1 to ${ids.length})`)];
        if (this.lookup.layers() !== null) return [post(`/layers/${n}/sources/select`, { id })];
        return [n === 1 ? post('/sources/select', { id }) : bad('layers are not available')];
      }
      case 'opacity':
        return [this.layered(post('/layers/opacity', { layer: n, value: v / 255 }))];
      case 'blend': {
        if (v === 0) return [];
        const mode = this.lookup.blendModes()[v - 1];
        return [mode === undefined ? bad(`no blend mode at position ${v}`) : this.layered(post('/layers/blend', { layer: n, mode }))];
      }
      case 'mute':
        return [this.layered(post('/layers/mute', { layer: n, enabled: v >= HIGH }))];
      case 'play':
        return v === 0 ? [] : this.transport(n, post(v >= HIGH ? '/transport/play' : '/transport/pause'));
      case 'speed':
        return v === 0 ? [] : this.transport(n, post('/transport/speed', { speed: round(0.1 + ((v - 1) / 254) * 3.9, 3) }));
      case 'position':
        return v === 0 ? [] : this.transport(n, post('/transport/seek', { fraction: (v - 1) / 65534 }));
      default:
        return [];
    }
  }

  private layered(m: Mapped): Mapped {
    return this.lookup.layers() === null ? bad('layers are not available') : m;
  }

  /** The transport routes act on the selected layer: a layer's transport channel selects its layer first. */
  private transport(layer: number, m: Mapped): Mapped[] {
    const layers = this.lookup.layers();
    if (layers === null) return [layer === 1 ? m : bad('layers are not available')];
    return layers.selected === layer ? [m] : [post('/layers/select', { layer }), m];
  }

  private takeBody(take: ChannelDef, cur: Buffer): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    const at = (kind: string): number => {
      const def = this.personality.channels.find((c) => c.kind === kind && c.layer === take.layer);
      return def ? (cur[this.address - 1 + def.offset] ?? 0) : 0;
    };
    const type = at('transitionType');
    const transition = type > 0 ? this.lookup.transitions()[type - 1] : undefined;
    if (transition !== undefined) body.transition = transition;
    const duration = at('transitionDuration');
    if (duration > 0) body.durationMs = duration * 40;
    return body;
  }
}
