// A typed client of the vjd API, built only from the served description (openapi-typescript writes ./schema.js's
// types at test time; openapi-fetch calls). test/contract/client.test.ts compiles it with `tsc --strict` and runs it.
// Kept as .mts so the repository build (test/**/*.ts) leaves it alone: it needs the generated types.
import createClient from 'openapi-fetch';
import type { operations, paths } from './schema.js';

// ---- Compile-time checks: no documented answer body is `unknown` or `any`, at any depth. ----
type IsAny<T> = 0 extends 1 & T ? true : false;
type Loose<T> = IsAny<T> extends true ? true : unknown extends T ? true : false;
type HasLoose<T, Depth extends unknown[] = []> = Depth['length'] extends 12
  ? false
  : Loose<T> extends true
    ? true
    : T extends readonly (infer E)[]
      ? HasLoose<E, [...Depth, 1]>
      : T extends object
        ? true extends { [K in keyof T]-?: HasLoose<T[K], [...Depth, 1]> }[keyof T]
          ? true
          : false
        : false;
type Bodies<O> = O extends { responses: infer R }
  ? { [S in keyof R]: R[S] extends { content: infer C } ? C[keyof C] : never }[keyof R]
  : never;
/** Operations with a response body (any status, errors included) that has an unknown or any part. */
type LooseOps = { [K in keyof operations]: true extends HasLoose<Bodies<operations[K]>> ? K : never }[keyof operations];
const noLooseBodies: [LooseOps] extends [never] ? true : { loose: LooseOps } = true;
void noLooseBodies;

const [base, key, idsJson] = process.argv.slice(2) as [string, string, string];
const ids = JSON.parse(idsJson) as {
  generator: string;
  mediaId: string;
  paletteId: string;
  live: string;
  effectType: string;
  recording: string;
  recordingToDelete: string;
};
const api = createClient<paths>({ baseUrl: base, headers: { 'x-api-key': key } });
const results: Array<{ op: string; status: number }> = [];
const note = (op: string, r: { response: Response }) => results.push({ op, status: r.response.status });

// Field reads below only compile when the generated types carry them.
const status = await api.GET('/api/v1/status');
note('getStatus', status);
const version: string | undefined = status.data?.version;
note('getCapabilities', await api.GET('/api/v1/capabilities'));
note('getDocs', await api.GET('/api/v1/docs', { parseAs: 'text' }));
note('getOpenApi', await api.GET('/api/v1/openapi.yaml', { parseAs: 'text' }));
const browse = await api.GET('/api/v1/browse', { params: { query: { path: '/sources', depth: '2' } } });
note('browse', browse);
const firstNode = browse.data?.items[0];
const firstKind: string | undefined = firstNode?.kind;
const sources = await api.GET('/api/v1/sources');
note('listSources', sources);
note('getCurrentSource', await api.GET('/api/v1/sources/current'));
const sel = await api.POST('/api/v1/sources/select', { body: { id: ids.generator } });
note('selectSource', sel);
const selectedKind: string | undefined = sel.data?.current.sourceKind;
// An activation timeout's details are typed: reason is one of three words.
const reason: 'expired' | 'superseded' | 'failed' | undefined =
  sel.error?.code === 'ACTIVATION_TIMEOUT' ? sel.error.details?.reason : undefined;
note('getSourceParams', await api.GET('/api/v1/sources/current/params'));
const sourceParams = await api.POST('/api/v1/sources/params', { body: { values: {} } });
note('setSourceParams', sourceParams);
const sourceInputType: string | undefined = sourceParams.data?.inputs[0]?.type;
note('selectLiveInput', await api.POST('/api/v1/inputs/live/select', { body: { id: ids.live } }));
note('selectFileInput', await api.POST('/api/v1/inputs/file/select', { body: { id: ids.mediaId } }));
note('listTransitions', await api.GET('/api/v1/transitions'));
const catalogErrors = await api.GET('/api/v1/catalog/errors');
note('listCatalogErrors', catalogErrors);
const firstErrorLine: number | null | undefined = catalogErrors.data?.items[0]?.line;
void firstErrorLine;
note('cueSource', await api.POST('/api/v1/mix/cue', { body: { id: ids.generator } }));
note('setMixPosition', await api.POST('/api/v1/mix/position', { body: { value: 0.5, transition: 'fade' } }));
const setDefault = await api.POST('/api/v1/mix/transition', { body: { transition: 'cut', durationMs: 0 } });
note('setMixTransition', setDefault);
const defaultMs: number | undefined = setDefault.data?.mix.transition.durationMs;
const take = await api.POST('/api/v1/mix/take', { body: { transition: 'cut' } });
note('takeMix', take);
const mix = await api.GET('/api/v1/mix');
note('getMix', mix);
const previewKind: string | undefined = mix.data?.preview?.sourceKind;
const takeType: string | undefined = take.data?.mix.transition.type;
note('listAvailableEffects', await api.GET('/api/v1/effects/available'));
const added = await api.POST('/api/v1/effects/add', { body: { type: ids.effectType, idempotent: true } });
note('addEffect', added);
const addedIndex: number | undefined = added.data?.index;
note('listChain', await api.GET('/api/v1/effects'));
note('listEffectParams', await api.GET('/api/v1/effects/params'));
note('getOscQuery', await api.GET('/api/v1/osc', { params: { query: { HOST_INFO: '1' } } }));
note('listEnabledEffects', await api.GET('/api/v1/effects/current'));
note('toggleEffect', await api.POST('/api/v1/effects/toggle', { body: { index: 1 } }));
note('setEffectEnabled', await api.POST('/api/v1/effects/enabled', { body: { name: ids.effectType, enabled: true } }));
const effectItem = await api.GET('/api/v1/effects/{index}', { params: { path: { index: '1' } } });
note('getEffect', effectItem);
const params = await api.POST('/api/v1/effects/params', { body: { index: 1, values: { amount: 0.5 } } });
note('setEffectParams', params);
const paramValue = params.data?.current.inputs.find((i) => i.name === 'amount')?.value;
const paramProblem: string | undefined = params.error?.code === 'INVALID_REQUEST' ? params.error.details?.input : undefined;
note('resetEffectParams', await api.POST('/api/v1/effects/reset', { body: { index: 1, inputs: ['amount'] } }));
const lfo = { kind: 'lfo', shape: 'sine', rate: '1/4', amount: 0.5 };
const modulated = await api.POST('/api/v1/effects/modulate', { body: { index: 1, input: 'amount', modulator: lfo } });
note('modulateEffect', modulated);
const modKind: string | undefined = modulated.data?.modulator?.kind;
void modKind;
const floatInput = sourceParams.data?.inputs.find((i) => i.type === 'float')?.name ?? 'none';
const beatBody = { input: floatInput, modulator: { kind: 'beat', amount: 0.2 } };
note('modulateSource', await api.POST('/api/v1/sources/modulate', { body: beatBody }));
note('modulateMix', await api.POST('/api/v1/mix/modulate', { body: { modulator: null } }));
note('modulateGlobal', await api.POST('/api/v1/global/modulate', { body: { input: 'dimmer', modulator: null } }));
note('freezeModulation', await api.POST('/api/v1/modulation/freeze', { body: { enabled: false } }));
const modCount: number | undefined = (await api.GET('/api/v1/modulation')).data?.count;
note('getModulation', { response: new Response(null, { status: modCount === undefined ? 500 : 200 }) });
const moved = await api.POST('/api/v1/effects/move', { body: { index: 1, to: 1 } });
note('moveEffect', moved);
const movedCount: number | undefined = moved.data?.items.length;
const savedPreset = await api.POST('/api/v1/presets/save', { body: { index: 1, name: 'Typed Look', overwrite: true } });
note('savePreset', savedPreset);
const presetId: string | undefined = savedPreset.data?.preset.id;
const miss = await api.POST('/api/v1/effects/remove', { body: { index: 99 } });
const missMax: number | undefined = miss.error?.code === 'ITEM_NOT_FOUND' ? miss.error.details?.max : undefined;
const missStatus = miss.response.status;
note('removeEffect', await api.POST('/api/v1/effects/remove', { body: { type: ids.effectType } }));
note('listPalettes', await api.GET('/api/v1/palettes'));
note('selectPalette', await api.POST('/api/v1/palettes/select', { body: { id: ids.paletteId } }));
const current = await api.GET('/api/v1/palettes/current');
note('getCurrentPalette', current);
const colors: string[] | undefined = current.data?.colors;
note('nextPalette', await api.POST('/api/v1/palettes/next'));
const audio = await api.GET('/api/v1/audio');
note('getAudio', audio);
const audioState: string | undefined = audio.data?.state;
note('selectAudio', await api.POST('/api/v1/audio/select', { body: { id: 'none' } }));
const levels = await api.GET('/api/v1/audio/levels');
note('getAudioLevels', levels);
const bass: number | undefined = levels.data?.bass;
const settings = await api.POST('/api/v1/audio/settings', { body: { offsetMs: 0, gain: null } });
note('setAudioSettings', settings);
const offsetMs: number | undefined = settings.data?.offsetMs;
const audioInputs = await api.GET('/api/v1/audio/inputs');
note('listAudioInputs', audioInputs);
const inputOrigin: 'config' | 'added' | 'discovered' | undefined = audioInputs.data?.items[0]?.origin;
const addedInput = await api.POST('/api/v1/audio/inputs/add', { body: { id: 'typed-radio', kind: 'stream', url: 'udp://127.0.0.1:9' } });
note('addAudioInput', addedInput);
const addedKind: string | undefined = addedInput.data?.input.kind;
const editedInput = await api.POST('/api/v1/audio/inputs/edit', { body: { id: 'typed-radio', name: 'Typed radio' } });
note('editAudioInput', editedInput);
const restarted: boolean | undefined = editedInput.data?.restarted;
const removedInput = await api.POST('/api/v1/audio/inputs/remove', { body: { id: 'typed-radio' } });
note('removeAudioInput', removedInput);
const detached: boolean | undefined = removedInput.data?.detached;
void [inputOrigin, addedKind, restarted, detached];
const tempoNow = await api.GET('/api/v1/tempo');
note('getTempo', tempoNow);
const tempoSource: 'auto' | 'tap' | 'manual' | undefined = tempoNow.data?.source;
note('tapTempo', await api.POST('/api/v1/tempo/tap'));
note('setTempoBpm', await api.POST('/api/v1/tempo/bpm', { body: { bpm: 120 } }));
note('resyncTempo', await api.POST('/api/v1/tempo/resync'));
note('nudgeTempo', await api.POST('/api/v1/tempo/nudge', { body: { ms: 10 } }));
note('multiplyTempo', await api.POST('/api/v1/tempo/multiply', { body: { factor: 2 } }));
note('setTempoSource', await api.POST('/api/v1/tempo/source', { body: { source: 'auto' } }));
const ranged = await api.POST('/api/v1/tempo/range', { body: { min: 75, max: 150 } });
note('setTempoRange', ranged);
const rangeMax: number | undefined = ranged.data?.range.max;
void [audioState, bass, offsetMs, tempoSource, rangeMax];
const dmxState = await api.GET('/api/v1/dmx');
note('getDmx', dmxState);
const dmxLoss: boolean | undefined = dmxState.data?.loss;
const personality = await api.GET('/api/v1/dmx/personality');
note('getDmxPersonality', personality);
const fineChannel: number | null | undefined = personality.data?.channels[0]?.fineChannel;
const midiState = await api.GET('/api/v1/midi');
note('getMidi', midiState);
const midiAvailable: boolean | undefined = midiState.data?.available;
note('learnMidi', await api.POST('/api/v1/midi/learn', { body: { to: '/vjd/global/dimmer' } }));
void [dmxLoss, fineChannel, midiAvailable];
const showState = await api.GET('/api/v1/show');
note('getShow', showState);
const brokerConnected: boolean | undefined = showState.data?.broker?.connected;
void brokerConnected;
const scheduled = await api.GET('/api/v1/show/scheduled');
note('listScheduled', scheduled);
const waitingOps: number | undefined = scheduled.data?.waiting.length;
// `at` is taken out of any POST body before validation, so the typed body does not list it.
const held = await api.POST('/api/v1/global/dimmer', { body: { value: 1, at: new Date(Date.now() + 300_000).toISOString() } as never });
const heldId = (held.data as unknown as { scheduled?: { id: string } } | undefined)?.scheduled?.id ?? 'none';
note('cancelScheduled', await api.POST('/api/v1/show/scheduled/{id}/cancel', { params: { path: { id: heldId } } }));
void waitingOps;
const timecodeNow = await api.GET('/api/v1/timecode');
note('getTimecode', timecodeNow);
const tcState: string | undefined = timecodeNow.data?.state;
const cueList = await api.GET('/api/v1/cues');
note('listCues', cueList);
const nextCue: string | undefined = cueList.data?.next?.name;
note('addCue', await api.POST('/api/v1/cues/add', { body: { name: 'Typed Cue', trigger: { kind: 'follow', delayMs: 500 } } }));
await api.POST('/api/v1/cues/add', { body: { name: 'Typed Cue Two' } });
note('editCue', await api.POST('/api/v1/cues/edit', { body: { id: 'typed-cue', fireOnJump: true } }));
note('moveCue', await api.POST('/api/v1/cues/move', { body: { id: 'typed-cue', index: 0 } }));
note('armCues', await api.POST('/api/v1/cues/arm', { body: { armed: true } }));
note('goCue', await api.POST('/api/v1/cues/go', { body: {} }));
await api.POST('/api/v1/cues/go', { body: {} });
note('backCue', await api.POST('/api/v1/cues/back', { body: {} }));
note('jumpCue', await api.POST('/api/v1/cues/jump', { body: { id: 'typed-cue' } }));
note('deleteCue', await api.POST('/api/v1/cues/delete', { body: { id: 'typed-cue' } }));
void [tcState, nextCue];
const pixelmapNow = await api.GET('/api/v1/pixelmap');
note('getPixelmap', pixelmapNow);
const firstRun: number | undefined = pixelmapNow.data?.patch[0]?.runs[0]?.from;
const pixelRate: number | undefined = status.data?.pixelmap.packetsPerSecond;
const typedStrip = { kind: 'strip' as const, x1: 0, y1: 0.2, x2: 1, y2: 0.2, pixels: 4 };
const typedFixture = { name: 'Typed Strip', geometry: typedStrip, destination: '127.0.0.1', universe: 9 };
note('addPixelFixture', await api.POST('/api/v1/pixelmap/fixtures/add', { body: typedFixture }));
note('editPixelFixture', await api.POST('/api/v1/pixelmap/fixtures/edit', { body: { id: 'typed-strip', colorOrder: 'GRB', gamma: 2.2 } }));
note('setPixelTest', await api.POST('/api/v1/pixelmap/test', { body: { mode: 'white' } }));
note('removePixelFixture', await api.POST('/api/v1/pixelmap/fixtures/remove', { body: { id: 'typed-strip' } }));
void [firstRun, pixelRate];
const transportNow = await api.GET('/api/v1/transport');
note('getTransport', transportNow);
const remainingS: number | null | undefined = transportNow.data?.program?.remainingS;
note('playTransport', await api.POST('/api/v1/transport/play', { body: {} }));
note('pauseTransport', await api.POST('/api/v1/transport/pause', { body: { bus: 'program' } }));
note('toggleTransport', await api.POST('/api/v1/transport/toggle', { body: {} }));
note('restartTransport', await api.POST('/api/v1/transport/restart', { body: {} }));
note('seekTransport', await api.POST('/api/v1/transport/seek', { body: { positionS: 1 } }));
note('setTransportSpeed', await api.POST('/api/v1/transport/speed', { body: { speed: 1.5 } }));
note('setTransportLoop', await api.POST('/api/v1/transport/loop', { body: { mode: 'once' } }));
note('setTransportEnd', await api.POST('/api/v1/transport/end', { body: { mode: 'next' } }));
note('setTransportInOut', await api.POST('/api/v1/transport/inout', { body: { in: null } }));
note('addTransportCue', await api.POST('/api/v1/transport/cues', { body: { name: 'a', positionS: 1 } }));
note('removeTransportCue', await api.POST('/api/v1/transport/cues/remove', { body: { name: 'a' } }));
note('setTransportChase', await api.POST('/api/v1/transport/chase', { body: { start: '01:00:00:00', onStop: 'black' } }));
void remainingS;
note('getGlobal', await api.GET('/api/v1/global'));
note('setBlackout', await api.POST('/api/v1/global/blackout', { body: { enabled: false } }));
note('setDimmer', await api.POST('/api/v1/global/dimmer', { body: { value: 1 } }));
note('listActions', await api.GET('/api/v1/actions'));
const action = await api.POST('/api/v1/actions/{id}', { params: { path: { id: 'global.dimmer-full' } } });
note('triggerAction', action);
const actionResult = action.data?.result;
const dimmer: number | undefined = actionResult !== undefined && 'dimmer' in actionResult ? actionResult.dimmer : undefined;
const image = { parseAs: 'arrayBuffer' as const };
note('listOutputs', await api.GET('/api/v1/outputs'));
const addedOutput = await api.POST('/api/v1/outputs/add', {
  body: { kind: 'record', name: 'typed-rec', encoder: 'x264', width: 160, height: 90, fps: 5 },
});
note('addOutput', addedOutput);
const outputState: 'stopped' | 'starting' | 'running' | 'retrying' | 'failed' | undefined = addedOutput.data?.current.state;
note('setOutputEnabled', await api.POST('/api/v1/outputs/enabled', { body: { name: 'typed-rec', enabled: false } }));
const typedRec = addedOutput.data?.current.id ?? 'typed-rec';
const mapped = await api.POST('/api/v1/outputs/{id}/map', {
  params: { path: { id: typedRec } },
  body: { map: { slice: { x: 0, y: 0, w: 0.5, h: 1 }, blend: { right: 0.1 } } },
});
note('setOutputMap', mapped);
const sliceWidth: number | undefined = mapped.data?.current.map?.slice?.w;
note('removeOutput', await api.POST('/api/v1/outputs/remove', { body: { name: 'typed-rec' } }));
const recordings = await api.GET('/api/v1/recordings');
note('listRecordings', recordings);
const recordingComplete: boolean | undefined = recordings.data?.items.find((r) => r.file === ids.recording)?.complete;
note('getRecording', await api.GET('/api/v1/recordings/{file}', { params: { path: { file: ids.recording } }, parseAs: 'arrayBuffer' }));
const deleted = await api.DELETE('/api/v1/recordings/{file}', { params: { path: { file: ids.recordingToDelete } } });
note('deleteRecording', deleted);
const deletedBytes: number | undefined = deleted.data?.removed.bytes;
// The preview never ends: the typed call is aborted once the answer's headers are in.
const previewAbort = new AbortController();
const preview = await api.GET('/api/v1/output/preview.mjpeg', {
  params: { query: { size: '64', fps: '5' } },
  parseAs: 'stream',
  signal: previewAbort.signal,
});
note('getOutputPreview', preview);
const previewType = preview.response.headers.get('content-type');
previewAbort.abort();
note('getCurrentThumbnail', await api.GET('/api/v1/thumbnails/current', { params: { query: { size: '64', format: 'jpg' } }, ...image }));
note('getLiveThumbnail', await api.GET('/api/v1/thumbnails/live/{id}', { params: { path: { id: ids.live } }, ...image }));
note('getSourceThumbnail', await api.GET('/api/v1/thumbnails/source/{id}', { params: { path: { id: ids.generator } }, ...image }));
note('getPaletteThumbnail', await api.GET('/api/v1/thumbnails/palette/{id}', { params: { path: { id: ids.paletteId } }, ...image }));
note('getMediaThumbnail', await api.GET('/media/thumbnails/{id}', { params: { path: { id: ids.mediaId } }, ...image }));
note('getEffectThumbnail', await api.GET('/api/v1/catalog/effects/{id}/thumbnail', { params: { path: { id: ids.effectType } }, ...image }));
const warmed = await api.POST('/api/v1/sources/warm', { body: { id: ids.mediaId } });
note('warmSource', warmed);
const warmState: 'opening' | 'warm' | 'not-needed' | undefined = warmed.data?.state;
const warmHoldMs: number | undefined = warmed.data?.holdMs;
// Layers: a second layer with its own chain and source, blended, selected, moved back, saved in a scene, removed.
const layers = await api.GET('/api/v1/layers');
note('listLayers', layers);
const blends: string[] | undefined = layers.data?.blends;
note('addLayer', await api.POST('/api/v1/layers/add', { body: { source: ids.generator, opacity: 0.5 } }));
note('setLayerOpacity', await api.POST('/api/v1/layers/opacity', { body: { layer: 2, value: 0.75 } }));
note('setLayerBlend', await api.POST('/api/v1/layers/blend', { body: { layer: 2, mode: blends?.[0] ?? 'normal' } }));
note('setLayerMute', await api.POST('/api/v1/layers/mute', { body: { layer: 2, enabled: false } }));
note('setLayerSolo', await api.POST('/api/v1/layers/solo', { body: { layer: 2, enabled: false } }));
note('setLayerName', await api.POST('/api/v1/layers/name', { body: { layer: 2, name: 'Typed' } }));
note('moveLayer', await api.POST('/api/v1/layers/move', { body: { layer: 2, to: 2 } }));
note('selectLayer', await api.POST('/api/v1/layers/select', { body: { layer: 1 } }));
const L = { params: { path: { layer: '2' } } };
note('layerAddEffect', await api.POST('/api/v1/layers/{layer}/effects/add', { ...L, body: { type: ids.effectType } }));
note('layerListChain', await api.GET('/api/v1/layers/{layer}/effects', L));
note('layerListEnabledEffects', await api.GET('/api/v1/layers/{layer}/effects/current', L));
note('layerListEffectParams', await api.GET('/api/v1/layers/{layer}/effects/params', L));
note('layerGetEffect', await api.GET('/api/v1/layers/{layer}/effects/{index}', { params: { path: { layer: '2', index: '1' } } }));
note('layerSetEffectParams', await api.POST('/api/v1/layers/{layer}/effects/params', { ...L, body: { index: 1, values: {} } }));
note('layerResetEffectParams', await api.POST('/api/v1/layers/{layer}/effects/reset', { ...L, body: { index: 1 } }));
note('layerToggleEffect', await api.POST('/api/v1/layers/{layer}/effects/toggle', { ...L, body: { index: 1 } }));
note('layerSetEffectEnabled', await api.POST('/api/v1/layers/{layer}/effects/enabled', { ...L, body: { index: 1, enabled: true } }));
note('layerMoveEffect', await api.POST('/api/v1/layers/{layer}/effects/move', { ...L, body: { index: 1, to: 1 } }));
note('layerRemoveEffect', await api.POST('/api/v1/layers/{layer}/effects/remove', { ...L, body: { index: 1 } }));
note('layerGetCurrentSource', await api.GET('/api/v1/layers/{layer}/sources/current', L));
note('layerSelectSource', await api.POST('/api/v1/layers/{layer}/sources/select', { ...L, body: { id: ids.generator } }));
note('getLayerThumbnail', await api.GET('/api/v1/thumbnails/layer/{id}', { params: { path: { id: '2' } }, ...image }));
const scene = await api.POST('/api/v1/scenes/save', { body: { name: 'Typed Scene' } });
note('saveScene', scene);
const sceneId: string = scene.data?.scene.id ?? 'typed-scene';
note('listScenes', await api.GET('/api/v1/scenes'));
note('getSceneThumbnail', await api.GET('/api/v1/thumbnails/scene/{id}', { params: { path: { id: sceneId } }, ...image }));
note('recallScene', await api.POST('/api/v1/scenes/recall', { body: { id: sceneId } }));
note('deleteScene', await api.POST('/api/v1/scenes/delete', { body: { id: sceneId } }));
note('removeLayer', await api.POST('/api/v1/layers/remove', { body: { layer: 2 } }));
// A plain GET of the event WebSocket: its documented 426 (the socket itself is tested in test/events).
note('getEvents', await api.GET('/api/v1/events'));
note('getStatusHead', await api.HEAD('/api/v1/status'));
note('preflightStatus', await api.OPTIONS('/api/v1/status'));

console.log(
  JSON.stringify({
    results,
    seen: {
      sourceInputType,
      paramValue,
      paramProblem,
      movedCount,
      presetId,
      version,
      firstKind,
      selectedKind,
      reason,
      addedIndex,
      missMax,
      missStatus,
      colors,
      dimmer,
      outputState,
      sliceWidth,
      recordingComplete,
      deletedBytes,
      previewType,
      previewKind,
      takeType,
      defaultMs,
      warmState,
      warmHoldMs,
    },
  }),
);
