// The layer strips' and scene row's requests: a layer change's answer carries the whole stack, which goes into the
// store at once (the `layers` topic confirms it); an error answer shows on the notice line like every panel's.
import { call, problem } from '../api';
import type { ApiPaths, Op, RequestBody } from '../api-shapes';
import { changed } from '../live';
import { live, notify, update, type LiveState } from '../store';

type LayerPath = Extract<
  ApiPaths<'POST'>,
  `/layers/${'add' | 'remove' | 'move' | 'opacity' | 'blend' | 'mute' | 'solo' | 'name' | 'select'}`
>;

/**
 * Stores a state read or answered over HTTP unless a topic event replaced the slice while the request was out: an
 * answer can arrive after a newer event (another client's change), and the event for this change follows anyway.
 */
async function unlessPushed<K extends 'layers' | 'scenes'>(key: K, request: () => Promise<LiveState[K] | null>): Promise<void> {
  const before = live()[key];
  const got = await request();
  if (got !== null && live()[key] === before) update({ [key]: got } as Partial<LiveState>);
}

/** Sends one stack change; true when it was applied. */
export async function layerPost<P extends LayerPath>(path: P, body: RequestBody<Op<'POST', P>>): Promise<boolean> {
  let ok = false;
  await unlessPushed('layers', async () => {
    const r = await call('POST', path, { body } as never);
    changed();
    if (!r.ok) {
      notify(problem(r));
      return null;
    }
    ok = true;
    const { selected, max, blends, layers } = r.body as NonNullable<LiveState['layers']>;
    return { selected, max, blends, layers };
  });
  return ok;
}

/** GET /layers into the store: the strips' first picture, and again after the socket (re)connects or a recall. */
export const readLayers = (): Promise<void> =>
  unlessPushed('layers', async () => {
    const r = await call('GET', '/layers');
    return r.ok ? r.body : null;
  });

/** GET /scenes into the store. */
export const readScenes = (): Promise<void> =>
  unlessPushed('scenes', async () => {
    const r = await call('GET', '/scenes');
    return r.ok ? r.body : null;
  });
