// The layer stack on the main thread: each layer's source manager and mixer (the same classes a single source
// always had), its opacity, blend mode, mute, solo and name, the selected layer /sources, /mix and /transport
// address, and
// state.json. The render worker gets the stack as LayerWire records; positions are 1-based, bottom to top.
import { EventEmitter } from 'node:events';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RenderClient } from '../workers/render-client.js';
import type { ReaderPool } from '../inputs/reader-pool.js';
import type { IsfDescriptor } from '../shared/isf-types.js';
import type { LayerWire } from '../shared/protocol/render.js';
import type { BusSaved, BusStore, ChainEntry, LayerSaved, StateStore } from '../state/store.js';
import type { Logger } from '../log.js';
import { SourceManager, type SourceEntry } from '../sources/source-manager.js';
import { restorePhase, type RestorePhase } from '../sources/kinds/index.js';
import { Mixer, type Transition } from '../sources/mixer.js';
import { ApiError } from '../errors.js';
import { LayerRender, layerReaders } from '../workers/layer-render.js';

export interface LayerParts {
  id: number;
  name: string;
  opacity: number;
  blend: string;
  mute: boolean;
  solo: boolean;
  render: LayerRender;
  sources: SourceManager;
  mixer: Mixer;
}

export interface StackDeps {
  render: RenderClient;
  readers: ReaderPool;
  state: StateStore;
  transitions(): readonly IsfDescriptor[];
  defaults(): Transition;
  maxLayers(): number;
  log: Logger;
}

export type LayerProps = Partial<Pick<LayerParts, 'name' | 'opacity' | 'blend' | 'mute' | 'solo'>>;

/** Which layer a request addresses when its route names one (`/layers/{n}/…`): runs `fn` with it. */
const override = new AsyncLocalStorage<LayerParts>();

export class LayerStack extends EventEmitter {
  private list: LayerParts[] = [];
  private selectedId = 1;
  private nextId = 2;
  private entries: SourceEntry[] = [];

  constructor(private readonly d: StackDeps) {
    super();
    this.setMaxListeners(0);
    const saved = d.state.peek().layers;
    const list = saved?.list ?? [];
    for (const l of list.length > 0 ? list : [defaultLayer(1)]) this.list.push(this.make(l.id, l));
    this.selectedId = saved?.selected ?? 1;
    this.nextId = Math.max(...this.list.map((l) => l.id)) + 1;
    this.sync();
  }

  /** The layer /sources, /mix and /transport address now: the one a `/layers/{n}/…` route names, else the selected one. */
  current(): LayerParts {
    return override.getStore() ?? this.selected();
  }

  selected(): LayerParts {
    return this.list.find((l) => l.id === this.selectedId) ?? this.list[0]!;
  }

  /** Runs `fn` (a route handler) with `/layers/{position}` as the addressed layer. */
  withLayer<T>(position: number, fn: () => T): T {
    return override.run(this.at(position), fn);
  }

  layers(): readonly LayerParts[] {
    return this.list;
  }

  positionOf(p: LayerParts): number {
    return this.list.indexOf(p) + 1;
  }

  byId(id: number): LayerParts | undefined {
    return this.list.find((l) => l.id === id);
  }

  /** The layer at a 1-based position, or 404 LAYER_NOT_FOUND. */
  at(position: number): LayerParts {
    const l = Number.isInteger(position) ? this.list[position - 1] : undefined;
    if (!l) throw new ApiError('LAYER_NOT_FOUND', `no layer ${position}: the stack has ${this.list.length} (1 is the bottom)`);
    return l;
  }

  /** Saved layer chains come back (awaited before the port opens, as the master chain is). */
  async restoreChains(restoreChain: (chain: ChainEntry[], layer: number) => Promise<void>): Promise<void> {
    const saved = this.d.state.peek().layers?.list ?? [];
    for (const l of this.list) {
      const s = saved.find((x) => x.id === l.id);
      if (s && s.chain.length > 0) await restoreChain(s.chain, l.id);
    }
  }

  /**
   * Saved sources and previews of the layers above layer 1 (whose own are in the top-level fields) that come back
   * in `phase`: media files once the library scan found them, the others at start.
   */
  async restoreSources(phase: RestorePhase): Promise<void> {
    const saved = this.d.state.peek().layers?.list ?? [];
    for (const l of this.list) {
      const s = saved.find((x) => x.id === l.id);
      if (!s || l.id === 1) continue;
      if (restorePhase(s.currentSource?.kind) === phase) await l.sources.restore(s.currentSource ?? null);
      if (restorePhase(s.mix?.preview?.kind) === phase) await l.mixer.restore(s.mix);
    }
  }

  setEntries(entries: SourceEntry[]): void {
    this.entries = entries;
    for (const l of this.list) l.sources.setEntries(entries);
  }

  add(props: LayerProps): LayerParts {
    if (this.list.length >= this.d.maxLayers())
      throw new ApiError('LAYER_LIMIT_REACHED', `the stack holds render.maxLayers (${this.d.maxLayers()}) layers; remove one first`);
    const id = this.nextId++;
    const l = this.make(id, { ...defaultLayer(id), ...props });
    l.sources.setEntries(this.entries);
    this.list.push(l);
    this.changed();
    return l;
  }

  remove(position: number): void {
    const l = this.at(position);
    if (this.list.length === 1) throw new ApiError('INVALID_REQUEST', 'the stack keeps at least one layer');
    this.list.splice(position - 1, 1);
    l.mixer.dispose();
    l.sources.dispose();
    l.render.dispose();
    if (this.selectedId === l.id) this.selectedId = this.list[Math.min(position - 1, this.list.length - 1)]!.id;
    this.changed();
  }

  move(position: number, to: number): void {
    const l = this.at(position);
    this.at(to);
    this.list.splice(position - 1, 1);
    this.list.splice(to - 1, 0, l);
    this.changed();
  }

  set(position: number, props: LayerProps): LayerParts {
    const l = this.at(position);
    Object.assign(l, props);
    this.changed();
    return l;
  }

  select(position: number): LayerParts {
    const l = this.at(position);
    if (this.selectedId !== l.id) {
      this.selectedId = l.id;
      this.changed();
      this.emit('selected-change');
    }
    return l;
  }

  /** Sends the stack to the render worker. */
  private sync(): void {
    const wires: LayerWire[] = this.list.map((l) => ({
      id: l.id,
      opacity: l.opacity,
      blend: l.blend,
      mute: l.mute,
      solo: l.solo,
      selected: l.id === this.selectedId,
    }));
    this.d.render.setLayers(wires);
  }

  /** Persists and publishes a change of the stack (chains persist through `saveChain`). */
  private changed(): void {
    this.sync();
    this.d.state.update((s) => {
      const old = s.layers?.list ?? [];
      s.layers = {
        selected: this.selectedId,
        list: this.list.map((l) => {
          const prev = old.find((o) => o.id === l.id);
          return { ...prev, ...props(l), chain: prev?.chain ?? [] };
        }),
      };
    });
    this.emit('change');
  }

  /** A layer's chain changed in the render worker: state.json keeps it. */
  saveChain(id: number, chain: ChainEntry[]): void {
    this.d.state.update((s) => {
      const list = s.layers?.list ?? this.list.map((l) => ({ ...props(l), chain: [] }));
      s.layers = { selected: this.selectedId, list: list.map((l) => (l.id === id ? { ...l, chain } : l)) };
    });
    this.emit('change');
  }

  private make(id: number, p: Omit<LayerSaved, 'id' | 'chain'> & Partial<LayerSaved>): LayerParts {
    const render = new LayerRender(this.d.render, id);
    const readers = layerReaders(this.d.readers, id);
    const state = id === 1 ? this.d.state : this.busStore(id);
    const sources = new SourceManager(render, readers, state, this.d.log.child({ layer: id }));
    const mixer = new Mixer({
      render,
      readers,
      sources,
      state,
      transitions: this.d.transitions,
      defaults: this.d.defaults,
      log: this.d.log,
    });
    const parts: LayerParts = { id, name: p.name, opacity: p.opacity, blend: p.blend, mute: p.mute, solo: p.solo, render, sources, mixer };
    const relay = (): void => {
      this.emit('change');
      if (this.selectedId === id) this.emit('selected-change');
    };
    sources.on('change', relay);
    mixer.on('change', relay);
    return parts;
  }

  /** Layers above the first persist their source and mixer in their own entry. */
  private busStore(id: number): BusStore {
    return {
      update: (change) =>
        this.d.state.update((s) => {
          const list = s.layers?.list ?? [];
          const rec = list.find((l) => l.id === id);
          if (rec) change(rec as BusSaved);
          else {
            const l = this.byId(id);
            if (!l) return;
            const fresh: LayerSaved = { ...props(l), chain: [] };
            change(fresh);
            s.layers = { selected: this.selectedId, list: [...list, fresh] };
          }
        }),
    };
  }
}

function props(l: LayerParts): Omit<LayerSaved, 'chain'> {
  return { id: l.id, name: l.name, opacity: l.opacity, blend: l.blend, mute: l.mute, solo: l.solo };
}

function defaultLayer(id: number): Omit<LayerSaved, 'chain'> {
  return { id, name: `Layer ${id}`, opacity: 1, blend: 'normal', mute: false, solo: false };
}
