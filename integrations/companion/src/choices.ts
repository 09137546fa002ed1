// Dropdown choices read from vjd after a connect (and again when the lists change), so a button is set up by
// picking a source, scene or effect by name rather than typing its id.
import type { DropdownChoice } from '@companion-module/base';
import type { VjdHttp } from './http.js';

export interface Choices {
  sources: DropdownChoice[];
  live: DropdownChoice[];
  files: DropdownChoice[];
  /** Source id → the thumbnail route for it (generators and presets, live inputs, media files differ). */
  thumbPaths: Map<string, string>;
  scenes: DropdownChoice[];
  effectTypes: DropdownChoice[];
  chain: DropdownChoice[];
  layers: DropdownChoice[];
  transitions: DropdownChoice[];
  outputs: DropdownChoice[];
  palettes: DropdownChoice[];
  actions: DropdownChoice[];
}

export function emptyChoices(): Choices {
  return {
    sources: [],
    live: [],
    files: [],
    thumbPaths: new Map(),
    scenes: [],
    effectTypes: [],
    chain: [],
    layers: [1, 2, 3, 4].map((n) => ({ id: n, label: `Layer ${n}` })),
    transitions: [],
    outputs: [],
    palettes: [],
    actions: [],
  };
}

export function thumbPathFor(item: { id: string; sourceKind?: string }): string | null {
  const id = encodeURIComponent(item.id);
  if (item.sourceKind === 'generator' || item.sourceKind === 'preset') return `/api/v1/thumbnails/source/${id}`;
  if (item.sourceKind === 'live') return `/api/v1/thumbnails/live/${id}`;
  if (item.sourceKind === 'file') return `/media/thumbnails/${id}`;
  return null;
}

/** Reads every list; a list whose route fails (an older vjd, a busy worker) keeps its previous choices. */
export async function loadChoices(http: VjdHttp, prev: Choices): Promise<Choices> {
  const read = async <T>(path: string, map: (body: any) => T, fallback: T): Promise<T> => {
    try {
      return map(await http.get(path));
    } catch {
      return fallback;
    }
  };
  const sourceItems = await read('/api/v1/sources', (b) => (b.items ?? []) as any[], [] as any[]);
  const pick = (kind?: string) =>
    sourceItems.filter((s) => kind === undefined || s.sourceKind === kind).map((s) => ({ id: s.id, label: `${s.name} (${s.sourceKind})` }));
  const thumbPaths = new Map<string, string>();
  for (const s of sourceItems) {
    const p = thumbPathFor(s);
    if (p) thumbPaths.set(s.id, p);
  }
  return {
    sources: sourceItems.length ? pick() : prev.sources,
    live: sourceItems.length ? pick('live') : prev.live,
    files: sourceItems.length ? pick('file') : prev.files,
    thumbPaths: sourceItems.length ? thumbPaths : prev.thumbPaths,
    scenes: await read('/api/v1/scenes', (b) => b.scenes.map((s: any) => ({ id: s.id, label: s.name })), prev.scenes),
    effectTypes: await read('/api/v1/effects/available', (b) => b.items.map((e: any) => ({ id: e.type, label: e.name })), prev.effectTypes),
    chain: await read('/api/v1/effects', (b) => b.items.map((e: any) => ({ id: e.name, label: `${e.index}. ${e.name}` })), prev.chain),
    layers: await read(
      '/api/v1/layers',
      (b) => Array.from({ length: b.max ?? 8 }, (_, i) => ({ id: i + 1, label: b.layers[i]?.name ?? `Layer ${i + 1}` })),
      prev.layers,
    ),
    transitions: await read('/api/v1/transitions', (b) => b.items.map((t: any) => ({ id: t.type, label: t.name })), prev.transitions),
    outputs: await read('/api/v1/outputs', (b) => b.items.map((o: any) => ({ id: o.name, label: `${o.name} (${o.kind})` })), prev.outputs),
    palettes: await read('/api/v1/palettes', (b) => b.items.map((p: any) => ({ id: p.id, label: p.name })), prev.palettes),
    actions: await read('/api/v1/actions', (b) => b.items.map((a: any) => ({ id: a.id, label: `${a.category}: ${a.name}` })), prev.actions),
  };
}

/** The thumbnail route of a source id, from the list when known, else from the id's form. */
export function thumbPathForId(id: string, known: Map<string, string>): string | null {
  if (!id) return null;
  const hit = known.get(id);
  if (hit) return hit;
  if (id.startsWith('source:') || id.startsWith('preset:')) return thumbPathFor({ id, sourceKind: 'generator' });
  if (/^media-[0-9a-f]{16}$/.test(id)) return thumbPathFor({ id, sourceKind: 'file' });
  return thumbPathFor({ id, sourceKind: 'live' });
}
