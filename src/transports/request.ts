// Turning an operation into a call on the one route table: what a transport makes of a message (the request it
// stands for, nothing, or why not) and how that request goes through the shared dispatch, as every desk sends it.
import type { NeutralReply, NeutralRequest } from '../http/dispatch.js';
import { API_PREFIX } from '../http/route.js';

export type Dispatch = (req: NeutralRequest) => Promise<NeutralReply>;

/** What an incoming message asks for: the one request it stands for, nothing (a button's release), or why it was refused. */
export type Mapped = { kind: 'request'; path: string; body?: unknown } | { kind: 'ignore' } | { kind: 'bad'; reason: string };

export const bad = (reason: string): Mapped => ({ kind: 'bad', reason });
export const post = (path: string, body?: unknown): Mapped => ({ kind: 'request', path: `${API_PREFIX}${path}`, body });

/** One request as a desk sends it: trusted (each transport admits its senders itself), never waiting for the disk. */
export const send = (dispatch: Dispatch, path: string, body?: unknown): Promise<NeutralReply> =>
  dispatch({ method: 'POST', path, body, trusted: true, awaitDurable: false });

/** Null when the route applied the request, else its status and message (for the log line and the rejected count). */
export function refusal(reply: NeutralReply): string | null {
  if (reply.status < 300) return null;
  return `${reply.status} ${(reply.json as { message?: string } | undefined)?.message ?? ''}`.trim();
}
