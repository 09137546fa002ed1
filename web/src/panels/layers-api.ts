// The layer strips' and scene row's requests: a layer change's answer carries the whole stack, which goes into the
// store at once (the `layers` topic confirms it); an error answer shows on the notice line like every panel's.
import { call, problem } from '../api';
import type { ApiPaths, Op, RequestBody } from '../api-shapes';
import { changed } from '../live';
import { notify, update } from '../store';

type LayerPath = Extract<
  ApiPaths<'POST'>,
  `/layers/${'add' | 'remove' | 'move' | 'opacity' | 'blend' | 'mute' | 'solo' | 'name' | 'select'}`
>;

/** Sends one stack change; true when it was applied. */
export async function layerPost<P extends LayerPath>(path: P, body: RequestBody<Op<'POST', P>>): Promise<boolean> {
  const r = await call('POST', path, { body } as never);
  changed();
  if (!r.ok) {
    notify(problem(r));
    return false;
  }
  const { selected, max, blends, layers } = r.body as { selected: number; max: number; blends: string[]; layers: never };
  update({ layers: { selected, max, blends, layers } });
  return true;
}

/** GET /layers into the store: the strips' first picture, and again after the socket (re)connects. */
export async function readLayers(): Promise<void> {
  const r = await call('GET', '/layers');
  if (r.ok) update({ layers: r.body });
}

/** GET /scenes into the store. */
export async function readScenes(): Promise<void> {
  const r = await call('GET', '/scenes');
  if (r.ok) update({ scenes: r.body });
}
