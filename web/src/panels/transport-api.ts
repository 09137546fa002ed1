// The transport panel's requests: each answer's clip goes into the store at once (the topic confirms it), and an
// error answer shows on the notice line like every panel's.
import { call, problem } from '../api';
import type { ApiPaths, Op, RequestBody } from '../api-shapes';
import { live, notify, update } from '../store';
import type { Bus, ClipView } from './transport-time';

type TransportPath = Extract<ApiPaths<'POST'>, `/transport/${string}`>;

/** Sends one transport request for `bus`; resolves with the clip after it, or null after showing the error. */
export async function drive<P extends TransportPath>(
  path: P,
  bus: Bus,
  body: Omit<NonNullable<RequestBody<Op<'POST', P>>>, 'bus'> = {} as never,
): Promise<ClipView | null> {
  const r = await call('POST', path, { body: { ...body, bus } as never });
  if (!r.ok) {
    notify(problem(r));
    return null;
  }
  const clip = (r.body as { transport: ClipView }).transport;
  const now = live().transport ?? { program: null, preview: null };
  update({ transport: { ...now, [bus]: clip }, transportAt: performance.now() });
  return clip;
}

/** GET /transport into the store: the panel's first picture before the topic's first event. */
export async function readTransport(): Promise<void> {
  const r = await call('GET', '/transport');
  if (r.ok) update({ transport: r.body, transportAt: performance.now() });
}
