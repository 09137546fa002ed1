// A WebSocket test client (the `ws` package: Node 20 has no global WebSocket): collects messages, waits on them.
import WebSocket from 'ws';

export interface WsClient {
  ws: WebSocket;
  messages: any[];
  /** Resolves with the first message (already received or later) that matches. */
  next(match: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  send(msg: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export function wsUrl(base: string, path = '/api/v1/events'): string {
  return `${base.replace(/^http/, 'ws')}${path}`;
}

/** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
export function connectWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, maxPayload: 256 * 1024 * 1024 });
    const messages: any[] = [];
    const waiters: Array<{ match: (m: any) => boolean; resolve: (m: any) => void }> = [];
    const closed = new Promise<{ code: number; reason: string }>((res) =>
      ws.on('close', (code, reason) => res({ code, reason: reason.toString() })),
    );
    ws.on('message', (data) => {
      let m: any;
      try {
        m = JSON.parse(data.toString());
      } catch {
        m = { unparsable: data.toString() };
      }
      messages.push(m);
      for (const w of [...waiters]) {
        if (w.match(m)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode, text })));
    });
    ws.on('error', (err) => reject(err));
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        closed,
        send: (msg) => ws.send(typeof msg === 'string' || Buffer.isBuffer(msg) ? (msg as any) : JSON.stringify(msg)),
        close: () => ws.close(),
        next(match, timeoutMs = 15000) {
          const hit = messages.find(match);
          if (hit) return Promise.resolve(hit);
          return new Promise((res, rej) => {
            const t = setTimeout(
              () => rej(new Error(`no matching message within ${timeoutMs} ms; last: ${JSON.stringify(messages.slice(-3)).slice(0, 400)}`)),
              timeoutMs,
            );
            waiters.push({
              match,
              resolve: (m) => {
                clearTimeout(t);
                res(m);
              },
            });
          });
        },
      }),
    );
  });
}
