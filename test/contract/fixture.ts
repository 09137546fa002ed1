// A vjd with an API key, a test live input, one media file and one palette folder, for the contract checks
// (Prism proxy and typed client): every operation has something real to answer with.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { req, startServer, tempDir, waitUntil, type TestServer } from '../helpers/server.js';

export const KEY = 'contract-key-0123456789';
export const AUTH = { 'x-api-key': KEY };

/** Ids the corpus and the client address, read from the running server. */
export interface Ids {
  generator: string;
  mediaId: string;
  paletteId: string;
  paletteName: string;
  live: string;
  /** An action of each category that exists, by prefix (`global.`, `palette.`, `source.`). */
  actions: string[];
  effectType: string;
  /** A finished recording the corpus reads, and one it deletes. */
  recording: string;
  recordingToDelete: string;
}

export interface Fixture {
  s: TestServer;
  ids: Ids;
  openapiYaml: string;
}

function ffmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], (err) => (err ? reject(err) : resolve())),
  );
}

export async function startFixture(): Promise<Fixture> {
  const dataDir = await tempDir('vjd-contract-');
  const media = join(dataDir, 'clips');
  const paletteDir = join(dataDir, 'pal');
  await mkdir(media, { recursive: true });
  await mkdir(paletteDir, { recursive: true });
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=blue:size=160x90', '-frames:v', '1', join(media, 'blue card.png')]);
  // Recordings as the record kind names them, made before start: the routes list and serve whatever is there.
  const recordings = join(dataDir, 'recordings');
  await mkdir(recordings, { recursive: true });
  const recording = 'contract-20260101T000000000Z.mkv';
  const recordingToDelete = 'contract-20260101T000001000Z.mkv';
  for (const f of [recording, recordingToDelete])
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'color=c=red:size=64x36:rate=5',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-f',
      'matroska',
      join(recordings, f),
    ]);
  await writeFile(join(paletteDir, 'contract-duo.json'), JSON.stringify({ name: 'Contract Duo', colors: ['#FF0000', '#0000FF'] }));
  const s = await startServer({
    dataDir,
    config: {
      server: { apiKey: KEY },
      // Fixtures can be added (and refused) while pixel mapping is off: nothing is sent.
      pixelmap: { destinations: ['127.0.0.1'] },
      media: { roots: [media] },
      palettes: { dirs: [paletteDir] },
      live: { test: [{ id: 'red', name: 'Red Card', pattern: 'color=c=red:size=160x120:rate=10' }], v4l2: { enabled: false } },
    },
  });
  const api = (p: string) => `${s.base}/api/v1${p}`;
  await waitUntil(
    async () =>
      (await req('GET', api('/sources'), { headers: AUTH })).json().items.some((i: { sourceKind: string }) => i.sourceKind === 'file'),
    30000,
    200,
  );
  const sources = (await req('GET', api('/sources'), { headers: AUTH })).json().items as Array<{ id: string; sourceKind: string }>;
  const palettes = (await req('GET', api('/palettes'), { headers: AUTH })).json().items as Array<{ id: string; name: string }>;
  const actions = (await req('GET', api('/actions'), { headers: AUTH })).json().items as Array<{ id: string }>;
  const catalog = (await req('GET', api('/effects/available'), { headers: AUTH })).json().items as Array<{ type: string }>;
  const find = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`fixture has no ${what}`);
    return x;
  };
  const palette = find(
    palettes.find((p) => p.id === 'contract-duo'),
    'palette',
  );
  const ids: Ids = {
    generator: find(
      sources.find((x) => x.sourceKind === 'generator'),
      'generator',
    ).id,
    mediaId: find(
      sources.find((x) => x.sourceKind === 'file'),
      'media file',
    ).id,
    paletteId: palette.id,
    paletteName: palette.name,
    live: 'red',
    actions: ['global.blackout-off', 'global.dimmer-full', 'palette.next', `palette.${palette.id}`, 'audio.none'].filter((a) =>
      actions.some((x) => x.id === a),
    ),
    effectType: find(catalog.find((c) => c.type === 'invert') ?? catalog[0], 'effect type').type,
    recording,
    recordingToDelete,
  };
  const openapiYaml = (await req('GET', api('/openapi.yaml'))).text;
  return { s, ids, openapiYaml };
}
