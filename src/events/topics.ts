// The event topics: one entry each (name, the GET route whose JSON it carries, where its changes are signalled).
// A new topic is one more entry here; the WebSocket hello, subscriptions, OSC feedback and the OpenAPI description
// of the events read this list.
import { API_PREFIX } from '../http/route.js';
import type { TopicDef } from './bus.js';
import type { Tempo } from '../tempo/types.js';
import { tempoStream } from './tempo-topic.js';
import { liveStream, type LiveValues } from './live-topic.js';
import { throttledSignal } from './throttle.js';

/** The `audio` topic is read this often at most while someone subscribes: at most 30 events a second. */
export const AUDIO_TOPIC_MS = 34;
/** The `transport` topic is read this often while someone subscribes (a playing clip's position moves on). */
export const TRANSPORT_TOPIC_MS = 100;
/** The `dmx`, `midi` and `show` topics are read this often while someone subscribes. */
export const DESK_TOPIC_MS = 500;
/** The `timecode` topic is read this often while someone subscribes (the display moves on). */
export const TIMECODE_TOPIC_MS = 100;
/** The scheduler's changes re-read the `show` topic at most this often (a burst of scheduled operations is one event). */
export const SHOW_SIGNAL_MS = 250;

/** What the topics hook into: the store and services that change state, never individual routes. */
export interface TopicSources {
  /** Every applied show-state change (chain, current source, palette, blackout, dimmer). */
  onStateChange(cb: () => void): void;
  onSourcesChange(cb: () => void): void;
  onPaletteChange(cb: () => void): void;
  /** Cue, take, T-bar and the end of a transition. */
  onMixChange(cb: () => void): void;
  /** Generator input values set, or the program source they belong to switched. */
  onGeneratorChange(cb: () => void): void;
  /** Changes whenever an output's definition or worker status does. */
  outputsVersion(): unknown;
  /** A new value whenever the browse tree is rebuilt. */
  browseVersion(): unknown;
  /** The tempo clock (beats and changes of the `tempo` topic). */
  tempo: Pick<Tempo, 'view' | 'onBeat'>;
  /** A clip on a bus changed transport or moved on (several times a second while it plays). */
  onTransportChange(cb: () => void): void;
  /** The applied values of the modulated inputs as the render worker last reported them (the `live` topic). */
  live(): LiveValues;
  /** A layer was added, removed, moved, blended, selected, or its source or chain changed. */
  onLayersChange(cb: () => void): void;
  /** A scene was saved or deleted. */
  onScenesChange(cb: () => void): void;
  /** An operation was scheduled, cancelled, started or had its frame reported (the `show` topic's `scheduled`). */
  onScheduleChange(cb: () => void): void;
  /** The timecode locked, jumped, freewheeled or was lost. */
  onTimecodeChange(cb: () => void): void;
  /** A cue fired, or the cue list changed. */
  onCuesChange(cb: () => void): void;
  /** An audio input was added, edited or removed, another was selected, or a capture device came or went. */
  onAudioInputsChange(cb: () => void): void;
}

export function eventTopics(s: TopicSources): TopicDef[] {
  return [
    { name: 'source', path: `${API_PREFIX}/sources/current`, inHello: true, signals: [s.onStateChange, s.onSourcesChange] },
    { name: 'mix', path: `${API_PREFIX}/mix`, inHello: true, signals: [s.onStateChange, s.onMixChange] },
    { name: 'chain', path: `${API_PREFIX}/effects`, inHello: true, signals: [s.onStateChange] },
    // Input values: GET /effects lists none, so a value set over HTTP, the socket or OSC shows here.
    { name: 'params', path: `${API_PREFIX}/effects/params`, inHello: true, signals: [s.onStateChange] },
    // The program source's generator inputs with their values; null while it is not a generator.
    {
      name: 'generator',
      path: `${API_PREFIX}/sources/current/params`,
      inHello: true,
      signals: [s.onStateChange, s.onMixChange, s.onGeneratorChange],
    },
    { name: 'palette', path: `${API_PREFIX}/palettes/current`, inHello: true, signals: [s.onStateChange, s.onPaletteChange] },
    { name: 'global', path: `${API_PREFIX}/global`, inHello: true, signals: [s.onStateChange] },
    { name: 'outputs', path: `${API_PREFIX}/outputs`, inHello: true, version: s.outputsVersion },
    { name: 'library', path: `${API_PREFIX}/browse`, inHello: false, version: s.browseVersion },
    { name: 'status', path: `${API_PREFIX}/status`, inHello: false, periodMs: 1000 },
    // Streams, each running only while a client subscribes to it (or OSC feedback goes out).
    { name: 'audio', path: `${API_PREFIX}/audio/levels`, inHello: false, onDemand: true, periodMs: AUDIO_TOPIC_MS },
    { name: 'tempo', path: `${API_PREFIX}/tempo`, inHello: false, onDemand: true, stream: tempoStream(s.tempo) },
    // On demand: read every 100 ms while wanted (the position moves), and at once on a state change.
    {
      name: 'transport',
      path: `${API_PREFIX}/transport`,
      inHello: false,
      onDemand: true,
      periodMs: TRANSPORT_TOPIC_MS,
      signals: [s.onTransportChange, s.onSourcesChange, s.onMixChange],
    },
    // Asked for by name (the page's strips), so a client of one layer hears what it always heard.
    { name: 'layers', path: `${API_PREFIX}/layers`, inHello: false, optIn: true, signals: [s.onLayersChange] },
    { name: 'scenes', path: `${API_PREFIX}/scenes`, inHello: false, optIn: true, signals: [s.onScenesChange] },
    { name: 'audioInputs', path: `${API_PREFIX}/audio/inputs`, inHello: false, optIn: true, signals: [s.onAudioInputsChange] },
    { name: 'live', path: `${API_PREFIX}/modulation`, inHello: false, onDemand: true, replay: true, stream: liveStream(() => s.live()) },
    // Desk activity (packets, applied requests, loss, ports, feedback): read twice a second while someone subscribes.
    { name: 'dmx', path: `${API_PREFIX}/dmx`, inHello: false, onDemand: true, periodMs: DESK_TOPIC_MS },
    { name: 'midi', path: `${API_PREFIX}/midi`, inHello: false, onDemand: true, periodMs: DESK_TOPIC_MS },
    // The show link and the scheduled operations (GET /show): read twice a second while wanted, which catches the
    // link's changes (connection, boxes heard, counters); the scheduler's own changes are read at once. A subscriber
    // gets the latest state at once.
    {
      name: 'show',
      path: `${API_PREFIX}/show`,
      inHello: false,
      onDemand: true,
      replay: true,
      periodMs: DESK_TOPIC_MS,
      signals: [throttledSignal(s.onScheduleChange, SHOW_SIGNAL_MS)],
    },
    // Timecode and the cue list (GET /timecode, GET /cues): a subscriber gets the latest at once, then each change.
    {
      name: 'timecode',
      path: `${API_PREFIX}/timecode`,
      inHello: false,
      onDemand: true,
      replay: true,
      periodMs: TIMECODE_TOPIC_MS,
      signals: [s.onTimecodeChange],
    },
    // Also read twice a second while wanted: `nextInMs` counts down to a triggered cue.
    {
      name: 'cues',
      path: `${API_PREFIX}/cues`,
      inHello: false,
      onDemand: true,
      replay: true,
      periodMs: DESK_TOPIC_MS,
      signals: [s.onCuesChange],
    },
  ];
}
