// One vjd server per test file for the Companion module tests: an API key, a short generated clip in the media
// library (for the transport), and small frames so the 2-core box stays responsive.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeColourClip } from '../helpers/colour-clip.js';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

export const KEY = 'companion-test-key';

export interface Vjd {
  s: TestServer;
  port: number;
  /** The generated clip's source id ('' when started without it). */
  clipId: string;
  get(path: string): Promise<any>;
  post(path: string, body?: unknown): Promise<any>;
  /** Selects a source over HTTP, warming it first and retrying vjd's 5 s first-frame refusal on a loaded box. */
  select(id: string): Promise<void>;
  /** Stops the server and removes its folder (data and the generated clip). */
  cleanup(): Promise<void>;
  /** GET /status's thumbnail counters. */
  thumbs(): Promise<any>;
}

export async function startVjd(prefix: string, opts: { clip?: boolean } = {}): Promise<Vjd> {
  const work = await tempDir(prefix);
  const media = join(work, 'media');
  await mkdir(media);
  if (opts.clip !== false) await makeColourClip(media, 'Colours', 15);
  const s = await startServer({
    dataDir: join(work, 'data'),
    config: {
      server: { apiKey: KEY },
      render: { width: 160, height: 90, fps: 15 },
      media: { roots: [media] },
      live: { test: [], streams: [], v4l2: { enabled: false } },
    },
  });
  const headers = { 'X-API-Key': KEY };
  const get = async (path: string) => {
    const r = await req('GET', `${s.base}/api/v1${path}`, { headers, timeoutMs: 30_000 });
    if (r.status >= 300) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
    return r.json();
  };
  const post = async (path: string, body: unknown = {}) => {
    const r = await req('POST', `${s.base}/api/v1${path}`, { headers, body, timeoutMs: 30_000 });
    if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
    return r.json();
  };
  let clipId = '';
  if (opts.clip !== false) {
    await waitUntil(async () => (await get('/sources')).items.some((i: any) => i.name === 'Colours'), 30_000, 200);
    clipId = (await get('/sources')).items.find((i: any) => i.name === 'Colours').id;
  }
  const select = async (id: string) => {
    await post('/sources/warm', { id });
    for (let i = 0; ; i++) {
      const r = await req('POST', `${s.base}/api/v1/sources/select`, { headers, body: { id }, timeoutMs: 30_000 });
      if (r.status < 300) return;
      if (i >= 4 || r.json().code !== 'ACTIVATION_TIMEOUT') throw new Error(`select ${id}: ${r.status} ${r.text}`);
    }
  };
  const cleanup = async () => {
    await s.cleanup();
    await rm(work, { recursive: true, force: true });
  };
  return { s, port: s.port, clipId, get, post, select, cleanup, thumbs: async () => (await get('/status')).thumbnails };
}
