// Output mapping's state: each output's map (`<dataDir>/output-maps.json`, configured and added outputs alike) and,
// while a mapped output runs, the ring the render worker draws its map into and its consumer reads instead of the
// program ring. A map is applied live: the render worker gets the new map for the next frame.
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { DATA_FILE_LIMITS } from '../limits.js';
import type { Logger } from '../log.js';
import { isIdentityMap, type OutputMap, OutputMapSchema, outputMapProblem } from '../shared/output-map.js';
import type { OutputMapItem } from '../shared/protocol/render.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { readRegularText } from '../util/regular-file.js';

const checkMap = Compile(OutputMapSchema);

export interface OutputMapsDeps {
  dataDir: string;
  render: { setOutputMaps(items: OutputMapItem[]): void };
  client: { newRing(): SharedArrayBuffer; setMapRings(rings: Array<{ id: string; ring: SharedArrayBuffer }>): void };
  log: Logger;
}

export class OutputMaps {
  private readonly maps = new Map<string, OutputMap>();
  private readonly rings = new Map<string, SharedArrayBuffer>();
  private readonly file: string;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly d: OutputMapsDeps) {
    this.file = join(d.dataDir, 'output-maps.json');
  }

  /** Reads the saved maps; one a request could not have set is logged and dropped. */
  async load(known: (id: string) => boolean): Promise<void> {
    let saved: unknown = {};
    try {
      saved = JSON.parse(await readRegularText(this.file, DATA_FILE_LIMITS.outputsFileMaxBytes));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.d.log.warn({ file: this.file, err: (err as Error).message }, 'saved output maps not read');
    }
    if (!saved || typeof saved !== 'object' || Array.isArray(saved)) return;
    for (const [id, map] of Object.entries(saved)) {
      if (known(id) && checkMap.Check(map) && !outputMapProblem(map)) this.maps.set(id, map);
      else this.d.log.warn({ file: this.file, id }, 'a saved output map was not restored');
    }
  }

  get(id: string): OutputMap | null {
    return this.maps.get(id) ?? null;
  }

  /** True when the output reads its own ring (a map that changes the picture). */
  mapped(id: string): boolean {
    const m = this.maps.get(id);
    return m !== undefined && !isIdentityMap(m);
  }

  /** Sets (or with null clears) a map and saves; the caller syncs the running outputs. */
  set(id: string, map: OutputMap | null): Promise<void> {
    if (map) this.maps.set(id, map);
    else this.maps.delete(id);
    return this.save();
  }

  /**
   * Hands the rings of the mapped outputs among `running` to the output worker, then the maps to the render worker
   * (rings first: a consumer that reads a ring before its first frame repeats the last program frame meanwhile).
   */
  sync(running: ReadonlySet<string>): void {
    const ids = [...running].filter((id) => this.mapped(id)).sort();
    for (const id of [...this.rings.keys()]) if (!ids.includes(id)) this.rings.delete(id);
    const items = ids.map((id) => {
      let ring = this.rings.get(id);
      if (!ring) this.rings.set(id, (ring = this.d.client.newRing()));
      return { id, map: this.maps.get(id)!, ring };
    });
    this.d.client.setMapRings(items.map(({ id, ring }) => ({ id, ring })));
    this.d.render.setOutputMaps(items);
  }

  private save(): Promise<void> {
    const data = JSON.stringify(Object.fromEntries(this.maps), null, 2);
    this.saving = this.saving.catch(() => undefined).then(() => atomicWriteFile(this.file, data));
    return this.saving;
  }
}
