// What each thumbnail id names: the lookups the thumbnail service needs from live inputs, the catalog (generators,
// presets, effects), the media library and the palette library, and the 404 with the candidate ids when an id names nothing.
import type { LiveInput } from '../inputs/providers.js';
import type { Catalog } from '../catalog/catalog.js';
import type { MediaLibrary } from '../library/media-library.js';
import type { PaletteLibrary } from '../palettes/library.js';
import { notFound } from '../errors.js';
import { matchName } from '../shared/names.js';
import { deviceIdOf } from '../browse/live-id.js';
import { sourceEntries, type SourceEntry } from '../sources/kinds/index.js';
import { shortHash } from './params.js';
import { GENERATOR_THUMB_TIME, type EffectThumbSource, type GeneratorThumbSource, type ThumbnailDeps } from './service.js';

export interface SubjectSources {
  /** The live inputs as last enumerated (the list is replaced, not mutated, so it is read through a getter). */
  live: () => readonly LiveInput[];
  catalog: Pick<Catalog, 'snapshot' | 'errors'>;
  library: Pick<MediaLibrary, 'snapshot'>;
  palettes: Pick<PaletteLibrary, 'list' | 'get' | 'find'>;
  renderSize: { width: number; height: number };
}

type Subjects = Pick<ThumbnailDeps, 'matchLive' | 'generator' | 'effect' | 'media' | 'palette' | 'notFound'>;
type GeneratorEntry = GeneratorThumbSource & { name: string };

export function thumbnailSubjects(s: SubjectSources): Subjects {
  const generators = generatorTable(s);
  const effects = effectTable(s);
  return {
    matchLive: (raw) => {
      const live = s.live();
      const id = deviceIdOf(raw);
      return live.find((l) => l.id === id) ?? matchName(live, raw, [(l) => l.name, (l) => l.id]);
    },
    generator: (id) => {
      const table = generators();
      const exact = table.get(id);
      if (exact) return exact;
      const hit = matchName([...table.entries()], id, [([key]) => key, ([, g]) => g.name]);
      return hit?.[1];
    },
    effect: (id) => {
      const table = effects();
      const hit = table.get(id) ?? matchName([...table.values()], id, [(e) => e.type, (e) => e.name]);
      return hit ? { ...hit, loadError: s.catalog.errors.of('effect', hit.type) } : undefined;
    },
    media: (id) => {
      const f = s.library.snapshot().byId.get(id);
      return f
        ? {
            id: f.id,
            name: f.name,
            path: f.path,
            size: f.size,
            mtimeMs: f.mtimeMs,
            width: f.width,
            height: f.height,
            still: f.type === 'image',
            durationSec: f.durationSec,
          }
        : undefined;
    },
    palette: (id) => {
      const p = s.palettes.get(id) ?? s.palettes.find(id);
      return p ? { id: p.id, colors: p.colors, version: p.version, digest: p.digest } : undefined;
    },
    notFound: (kind, requested) => {
      const pool =
        kind === 'media'
          ? s.library.snapshot().files.map((f) => f.id)
          : kind === 'palette'
            ? s.palettes.list().map((p) => p.id)
            : kind === 'effect'
              ? s.catalog.snapshot.effects.map((e) => e.type)
              : drawnOffScreen(s).map((e) => e.id);
      return notFound(kind, requested, pool);
    },
  };
}

/** The entries of the source kinds the `source` route draws off-screen (generators and presets), in list order. */
function drawnOffScreen(s: SubjectSources): SourceEntry[] {
  const from = { catalog: s.catalog.snapshot, live: s.live(), media: s.library.snapshot() };
  return sourceEntries(from, (k) => k.thumbnail === 'source');
}

/** Generators and presets as thumbnail subjects with their image hash, rebuilt once per catalog snapshot (they are built from it). */
function generatorTable(s: SubjectSources): () => Map<string, GeneratorEntry> {
  let built: { version: number; table: Map<string, GeneratorEntry> } | null = null;
  return () => {
    const cat = s.catalog.snapshot;
    if (built?.version === cat.version) return built.table;
    const table = new Map<string, GeneratorEntry>();
    const { width, height } = s.renderSize;
    const sig = (fragment: string, inputs: Record<string, unknown>) =>
      shortHash(fragment, JSON.stringify(inputs), width, height, GENERATOR_THUMB_TIME);
    const byType = new Map(cat.generators.map((g) => [g.type, g]));
    for (const { id, name, spec } of drawnOffScreen(s)) {
      const g = spec.kind === 'generator' ? byType.get(spec.type) : undefined;
      if (g && spec.kind === 'generator')
        table.set(id, { type: g.type, inputs: spec.inputs, name, signature: sig(g.fragment, spec.inputs) });
    }
    built = { version: cat.version, table };
    return table;
  };
}

type EffectEntry = Omit<EffectThumbSource, 'loadError'> & { name: string };

/** Effects by type with their image hash, rebuilt once per catalog snapshot: a changed file changes its hash. */
function effectTable(s: SubjectSources): () => Map<string, EffectEntry> {
  let built: { version: number; table: Map<string, EffectEntry> } | null = null;
  return () => {
    const cat = s.catalog.snapshot;
    if (built?.version === cat.version) return built.table;
    const { width, height } = s.renderSize;
    const table = new Map<string, EffectEntry>();
    for (const d of cat.effects) {
      const signature = shortHash(
        d.fragment,
        d.vertex ?? '',
        JSON.stringify([d.passes, d.inputs, d.imported ?? null]),
        width,
        height,
        GENERATOR_THUMB_TIME,
      );
      table.set(d.type, { type: d.type, name: d.name, file: d.file, signature });
    }
    built = { version: cat.version, table };
    return table;
  };
}
