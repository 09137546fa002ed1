// A request sent over the events socket, run through the one dispatch with the socket's credentials; image
// routes answer their ETag only, so a socket never makes vjd render or encode an image nobody receives.
import type { NeutralReply, NeutralRequest } from '../http/dispatch.js';
import type { Router } from '../http/router.js';
import type { StateBus } from './bus.js';
import type { Client } from './client.js';

export type SocketMethod = 'GET' | 'POST' | 'DELETE';

export interface RequestDeps {
  router: Router;
  dispatch(req: NeutralRequest): Promise<NeutralReply>;
  bus: StateBus;
}

/** The status and the JSON text of the body the same HTTP request gets. */
export async function runRequest(
  d: RequestDeps,
  c: Client,
  method: SocketMethod,
  path: string,
  payload: unknown,
): Promise<{ status: number; body: string }> {
  const target = path.split('?')[0]!;
  const found = d.router.find(method, target);
  // A `*` If-None-Match stops an image route before any render or encode work.
  const image = found !== null && (found.route.def.responses[200]?.contentType ?? '').startsWith('image/');
  const reply = await d.dispatch({
    method,
    path,
    body: method === 'POST' ? payload : undefined,
    transport: 'events',
    headers: {
      'x-api-key': c.apiKey,
      authorization: c.authorization,
      'content-type': 'application/json',
      ...(image ? { 'if-none-match': '*' } : {}),
    },
  });
  if (image && reply.status === 304) {
    d.bus.watchThumbnail(path);
    return { status: 200, body: JSON.stringify({ etag: reply.headers?.ETag ?? null }) };
  }
  return { status: reply.status, body: bodyText(reply) };
}

function bodyText(reply: NeutralReply): string {
  if (reply.jsonText !== undefined)
    return typeof reply.jsonText === 'string' ? reply.jsonText : Buffer.from(reply.jsonText).toString('utf8');
  if (reply.json !== undefined) return JSON.stringify(reply.json);
  return 'null';
}
