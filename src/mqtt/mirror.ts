// Mirroring on a leader (docs/show.md): an operation of the show's own kind (scene recall, cue and take, tempo,
// transport, blackout, dimmer) sent to the leader with `"show": <target>` in its body is published as a command for
// that target instead of being applied here; the leader applies it too when it is among the target's boxes, as every
// box does, from the broker. So one Companion page, OSC surface or lighting desk on the leader drives the show.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { MirrorHook } from '../http/dispatch.js';
import { API_PREFIX } from '../http/route.js';
import { isShowName } from './topics.js';

/** Paths mirrored whole, and path prefixes whose every operation is. */
const MIRRORED = new Set(['/scenes/recall', '/mix/cue', '/mix/take', '/global/blackout', '/global/dimmer'].map((p) => API_PREFIX + p));
const MIRRORED_UNDER = ['/tempo/', '/transport/'].map((p) => API_PREFIX + p);

/** Whether operations on `path` (no query) may carry `show`. */
export const mirrored = (path: string): boolean => MIRRORED.has(path) || MIRRORED_UNDER.some((p) => path.startsWith(p));

export interface MirrorLink {
  /** Null when no show is configured. */
  readonly leader: boolean | null;
  /** The topic of commands for `target`. */
  commandTopic(target: string): string;
  publish(topic: string, payload: string, opts: { retain?: boolean; qos?: 0 | 1 }): boolean;
}

export interface Mirrored {
  id: string;
  target: string;
  topic: string;
}

/**
 * Publishes `POST path` with `body` (and `at` when given) for `target`; throws the ApiError that says why not (no
 * show, not the leader, a bad target, the broker not connected).
 */
export function mirror(link: MirrorLink, path: string, target: unknown, body: unknown, at: unknown): Mirrored {
  if (link.leader === null) throw new ApiError('SHOW_NOT_LEADER', 'this box is in no show (config show); send the operation without show');
  if (!link.leader) throw new ApiError('SHOW_NOT_LEADER', 'only the show leader mirrors operations (config show.leader)');
  if (typeof target !== 'string' || (target !== 'all' && !isShowName(target)))
    throw new ApiError('INVALID_REQUEST', 'show must be "all", a group or a box name (A-Z a-z 0-9 _ . -, one topic level)');
  const id = `m-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const topic = link.commandTopic(target);
  const payload: Record<string, unknown> = { id, op: `POST ${path}` };
  if (body !== undefined) payload.body = body;
  if (at !== undefined) payload.at = at;
  if (!link.publish(topic, JSON.stringify(payload), { qos: 1 }))
    throw new ApiError('SHOW_NOT_CONNECTED', 'the show broker is not connected; nothing was sent (GET /show says why)');
  return { id, target, topic };
}

/** The dispatch's hook: `show` on the mirrored routes, answered 202 with what was published. */
export const mirrorHook = (link: MirrorLink, resolveAt: (at: unknown) => string): MirrorHook => ({
  takes: mirrored,
  // `at` goes out as the instant it names here, so every box takes the same one ("nextBar" read at slightly
  // different moments could name different bars).
  add: (r) => ({
    status: 202,
    json: { mirrored: mirror(link, r.path, r.target, r.body, r.at === undefined ? undefined : resolveAt(r.at)) },
  }),
});
