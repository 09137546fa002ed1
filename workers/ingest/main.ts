// Ingest worker entry: one supervised ffmpeg per open key, each writing into its own SharedArrayBuffer frame ring.
import { parentDeathPrefix } from '../../src/shared/parent-death.js';
import { parentPort, workerData } from 'node:worker_threads';
import { createFrameRing, ringGeometry } from '../../src/shared/frame-ring.js';
import type { IngestInit, IngestInput, IngestState, IngestToMain, MainToIngest } from '../../src/shared/protocol/ingest.js';
import { expired } from '../../src/shared/rpc.js';
import { failure, logTo, replyFailure } from '../../src/shared/protocol/common.js';
import { createPcmRing, isPcmRing } from '../../src/shared/pcm-ring.js';
import { FfmpegSource } from './ffmpeg-source.js';
import { ClipSource } from './clip-source.js';
import { wantsAudio } from './pcm-output.js';
import type { ReaderOptions } from './clip-options.js';

if (!parentPort) throw new Error('workers/ingest/main.js runs as a worker thread');
const port = parentPort;
const init = workerData as IngestInit;

interface Entry {
  /** A media video opened with its transport reads through a ClipSource; every other input through FfmpegSource. */
  source: FfmpegSource | ClipSource;
  ring: SharedArrayBuffer;
  /** The PCM ring of its audio track, when its input asks for one. */
  pcm: SharedArrayBuffer | undefined;
  /** Identity of what was opened: reopening the same thing reuses the running process. */
  signature: string;
}

const entries = new Map<string, Entry>();
let stopping = false;

function post(msg: IngestToMain): void {
  port.postMessage(msg);
}

const logToMain = logTo(post);

// PR_SET_PDEATHSIG through setpriv: the kernel kills ffmpeg when the thread that spawned it (this worker) ends,
// however it ends (terminate(), a crash of the process, SIGKILL), which no exit handler can promise.
const wrapper: Promise<string[]> = parentDeathPrefix('KILL').then((prefix) => {
  if (!prefix) logToMain('warn', 'setpriv --pdeathsig unavailable: ffmpeg children may outlive a killed vjd');
  return prefix ?? [];
});

function signatureOf(input: IngestInput, live: boolean): string {
  return JSON.stringify([input, live]);
}

/** A ring handed back from a worker that died, when it still fits this worker's box. */
function adoptable(ring: SharedArrayBuffer | undefined): ring is SharedArrayBuffer {
  if (!ring) return false;
  try {
    const g = ringGeometry(ring);
    return g.maxWidth === init.maxWidth && g.maxHeight === init.maxHeight;
  } catch {
    return false;
  }
}

type OpenRequest = Extract<MainToIngest, { t: 'open' }>;

async function open({ id, key, input, live, ring: handed, pcm: handedPcm, clip }: OpenRequest): Promise<void> {
  const signature = signatureOf(input, live);
  const existing = entries.get(key);
  if (existing?.signature === signature) {
    post({ t: 'open-reply', id, key, ok: true, ring: existing.ring, ...pcmOf(existing) });
    post({ t: 'state', key, state: existing.source.state, message: existing.source.message, pid: existing.source.pid });
    return;
  }
  if (existing) {
    // Same key, different input: the old process goes quietly; the key's states now describe the new one.
    entries.delete(key);
    void existing.source.close(true);
  }
  // Every ring is sized for the program: one reader per input serves the output and its thumbnails alike.
  const adopted = adoptable(handed);
  const ring = adopted ? handed : createFrameRing(init.maxWidth, init.maxHeight);
  // The audio side keeps reading the ring it was given, across a restart of this worker too.
  const pcm = wantsAudio(input) ? (isPcmRing(handedPcm) ? handedPcm : createPcmRing()) : undefined;
  let entry: Entry | undefined;
  const onState = (state: IngestState, message: string | undefined, pid: number | undefined): void => {
    // A replaced or closed entry speaks no more for its key, except to say it closed while nothing reopened it.
    const current = entries.get(key);
    if (current !== entry && !(state === 'closed' && current === undefined)) return;
    post({ t: 'state', key, state, message, pid });
  };
  const common: ReaderOptions = {
    key,
    ring,
    pcm,
    maxWidth: init.maxWidth,
    maxHeight: init.maxHeight,
    fps: init.fps,
    ffmpeg: init.ffmpeg,
    wrapper: await wrapper,
    adopted,
    onState,
    onLog: logToMain,
  };
  const source =
    clip && input.kind === 'file' && !input.still
      ? new ClipSource({
          ...common,
          path: input.path,
          start: clip,
          stallMs: init.stall.fileMs,
          onStatus: (status) => {
            if (entries.get(key) === entry) post({ t: 'clip-status', key, status });
          },
        })
      : new FfmpegSource({ ...common, input, live, stall: init.stall });
  entry = { source, ring, pcm, signature };
  if (stopping) return;
  entries.set(key, entry);
  post({ t: 'open-reply', id, key, ok: true, ring, ...pcmOf(entry) });
  source.start();
}

function pcmOf(entry: Entry): { pcm?: SharedArrayBuffer } {
  return entry.pcm ? { pcm: entry.pcm } : {};
}

function clipCommand(msg: Extract<MainToIngest, { t: 'clip' }>): void {
  const { id, key } = msg;
  const source = entries.get(key)?.source;
  if (!(source instanceof ClipSource)) {
    post(failure(id, 'failed', 'the source is not open as a clip'));
    return;
  }
  Promise.resolve()
    .then(() => source.command(msg.cmd))
    .then(
      (status) => post({ t: 'clip-reply', id, key, ok: true, status }),
      (err: unknown) => replyFailure(post, id, err),
    );
}

async function close(key: string): Promise<void> {
  const entry = entries.get(key);
  if (!entry) {
    post({ t: 'state', key, state: 'closed' });
    return;
  }
  entries.delete(key);
  await entry.source.close();
}

async function stop(id: number): Promise<void> {
  stopping = true;
  const all = [...entries.values()];
  entries.clear();
  await Promise.all(all.map((e) => e.source.close(true)));
  post({ t: 'stopped', id });
  port.close();
}

// Opens race the setpriv probe; handling messages in order keeps open → close → open of one key in order too.
let queue: Promise<void> = Promise.resolve();
port.on('message', (msg: MainToIngest) => {
  queue = queue
    .then(async () => {
      if (stopping) return;
      // A stop past its deadline still stops: the client terminates the thread anyway.
      if (msg.t === 'open' && expired(msg)) post(failure(msg.id, 'expired', 'the request reached the ingest worker past its deadline'));
      else if (msg.t === 'open') await open(msg);
      else if (msg.t === 'restart') entries.get(msg.key)?.source.restart();
      // Not awaited: a seek answers once its frame is in the ring, and other commands must not queue behind it.
      else if (msg.t === 'clip') clipCommand(msg);
      // Not awaited: the key is free at once, and a slow kill must not delay the next open.
      else if (msg.t === 'close') void close(msg.key);
      else if (msg.t === 'stop') await stop(msg.id);
    })
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      logToMain('error', 'ingest command failed', { cmd: msg.t, source: 'key' in msg ? msg.key : undefined, error: message });
      if (msg.t === 'open') replyFailure(post, msg.id, err);
      if (msg.t !== 'stop') post({ t: 'state', key: msg.key, state: 'failed', message });
    });
});

// Covers process.exit() inside this thread; terminate() and process death are covered by the parent-death signal.
process.on('exit', () => {
  for (const e of entries.values()) e.source.killSync();
});
