// The audio side of the show, in two steps at two places of the start order. The audio worker's client is made
// first of all, before the render worker (it starts nothing yet), so the render worker gets its analysis and tempo
// blocks. The audio service and the tempo clock come late: the service's wire follows the reader pool and the
// program source, which the layers make.
import type { Config } from '../config/schema.js';
import type { Logger } from '../log.js';
import type { StateStore } from '../state/store.js';
import type { ReaderPool } from '../inputs/reader-pool.js';
import type { SourceManager } from '../sources/source-manager.js';
import { AudioClient } from '../workers/audio-client.js';
import { AudioService, startSettings } from '../audio/service.js';
import { AudioWire } from '../audio/wire.js';
import type { LibraryFiles } from '../audio/library-file.js';
import { startClock, TempoService } from '../tempo/service.js';

export interface ShowAudioClient {
  audioClient: AudioClient;
  /** The saved manual tempo (null: follow the beat), handed on to the tempo service. */
  manualBpm: number | null;
}

/** The audio worker's client with the saved gain and tempo clock; nothing starts yet. */
export function makeAudioClient(cfg: Config, state: StateStore, log: Logger): ShowAudioClient {
  const firstClock = startClock(cfg.audio, state.peek());
  const audioClient = new AudioClient(
    { ffmpeg: 'ffmpeg', gain: startSettings(cfg.audio, state.peek()).gain, tempo: firstClock.clock, manualBpm: firstClock.manualBpm },
    log,
  );
  return { audioClient, manualBpm: firstClock.manualBpm };
}

export interface AudioDeps {
  cfg: Config;
  client: ShowAudioClient;
  readers: ReaderPool;
  /** The selected layer's sources: the `program` audio input follows its takes. */
  sources: SourceManager;
  state: StateStore;
  log: Logger;
  /** Where the added inputs are kept, and the library an added `file` input plays from. */
  dataDir: string;
  library: LibraryFiles;
  /** The reader pool's audio track choice (an added `program` input turns on the media files' sound). */
  tracks: { files: boolean };
}

/** The audio service and the tempo service; not started (the show starts the audio once the tempo is known). */
export function wireAudio(d: AudioDeps): { audio: AudioService; tempo: TempoService } {
  const { cfg, state, log } = d;
  const { audioClient, manualBpm } = d.client;
  const audioWire = new AudioWire({ readers: d.readers, program: d.sources, streams: cfg.live.streams, log });
  const audio = new AudioService(cfg.audio, audioClient, state, log, audioWire, {
    ffmpeg: 'ffmpeg',
    dataDir: d.dataDir,
    library: d.library,
    tracks: d.tracks,
  });
  const tempo = new TempoService(audioClient, state, log, manualBpm);
  return { audio, tempo };
}
