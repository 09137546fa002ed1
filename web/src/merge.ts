// How one topic's full state (a hello's member or an event's data) lands in the page's store: which slice it
// replaces, and whether it counts as a state change for the status bar's last-event time.
import { live, type LiveState, type Topic, type TopicState } from './store';

type TopicEvent = { [K in Topic]: { topic: K; data: TopicState[K] } }[Topic];

/** Adds one topic's new full state to `patch`; a topic the page does not show matches no case and changes nothing. */
export function merge(topic: string, data: unknown, patch: Partial<LiveState>): void {
  // The topic names which GET answer `data` is (documented with GET /events).
  const e = { topic, data } as TopicEvent;
  switch (e.topic) {
    case 'source':
      patch.source = e.data;
      break;
    case 'mix':
      patch.mix = e.data;
      break;
    case 'chain':
      patch.chain = e.data;
      break;
    case 'params':
      patch.params = e.data;
      break;
    case 'generator':
      patch.generator = e.data;
      patch.generatorVersion = (patch.generatorVersion ?? live().generatorVersion) + 1;
      break;
    case 'palette':
      patch.palette = e.data;
      break;
    case 'global':
      patch.global = e.data;
      break;
    case 'outputs':
      patch.outputs = e.data;
      break;
    case 'layers':
      patch.layers = e.data;
      break;
    case 'scenes':
      patch.scenes = e.data;
      break;
    case 'audioInputs':
      patch.audioInputs = e.data;
      break;
    case 'show':
      patch.show = e.data;
      break;
    case 'cues':
      patch.cues = e.data;
      patch.cuesAt = performance.now();
      break;
    case 'library':
      patch.libraryVersion = live().libraryVersion + 1;
      break;
    case 'status':
      patch.status = { ...live().status, ...e.data };
      frozenFrom(e.data, patch);
      return;
    // Streams, not state changes: they do not count as the last event (which measures state changes).
    case 'audio':
      patch.audio = e.data;
      return;
    case 'tempo':
      patch.tempo = e.data;
      return;
    case 'live':
      patch.live = e.data;
      return;
    case 'transport':
      patch.transport = e.data;
      patch.transportAt = performance.now();
      return;
    case 'timecode':
      patch.timecode = e.data;
      return;
    case 'thumbnail':
      if (e.data && typeof e.data.url === 'string') patch.thumbs = { ...live().thumbs, [e.data.url]: String(e.data.etag ?? '') };
      return;
    default:
      return;
  }
  patch.lastEventAt = performance.now();
}

/** Whether modulation is frozen, from GET /status's `modulation` member where the server has one. */
export function frozenFrom(status: unknown, patch: Partial<LiveState>): void {
  const frozen = (status as { modulation?: { frozen?: unknown } } | null)?.modulation?.frozen;
  if (typeof frozen === 'boolean') patch.frozen = frozen;
}
