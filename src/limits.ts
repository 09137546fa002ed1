// Limits of the control interface (docs/api.md, "Limits"): the one place their numbers live. LIMITS is reported
// as is by GET /capabilities; routes, services, schemas and error messages read it rather than repeating a number.
export const LIMITS = {
  bodyLimitBytes: 64 * 1024,
  selectIdMaxLength: 512,
  activationTimeoutMs: 5000,
  chainTimeoutMs: 1000,
  /** A mutation is answered once it is on disk; a disk slower than this gets 503 STATE_NOT_SAVED (the change stays applied). */
  durableWaitMs: 3000,
  browse: { pathMaxLength: 512, depthMin: 1, depthMax: 3, depthDefault: 1 },
  thumbnails: {
    sizeMin: 32,
    sizeMax: 512,
    sizeDefault: 192,
    formats: ['png', 'jpg'],
    liveIdMaxLength: 256,
    queueRejectAbove: 32,
    queueResumeAt: 16,
    readbackTimeoutMs: 500,
    liveFrameMaxAgeMs: 2000,
  },
} as const;

/** Not reported in /capabilities: how many candidate ids a 404 ITEM_NOT_FOUND lists in `details.available`. */
export const NOT_FOUND_AVAILABLE_MAX = 50;

/** Outputs (streams and recordings): not in LIMITS, whose shape GET /capabilities reports as is. */
export const OUTPUT_LIMITS = {
  /** Outputs at once, config file and added ones together (403 OUTPUT_LIMIT_REACHED past it). */
  max: 8,
  urlMaxLength: 2048,
  bitrateKbps: { min: 100, max: 100_000 },
  width: { min: 16, max: 7680 },
  height: { min: 16, max: 4320 },
  fps: { min: 1, max: 120 },
  /** Display window position: X11 coordinates are 16-bit (a second monitor starts at e.g. x 1920). */
  x: { min: 0, max: 32767 },
  y: { min: 0, max: 32767 },
} as const;

/** Output mapping (POST /outputs/{id}/map): how far points may reach and how fine a mesh may be. */
export const OUTPUT_MAP_LIMITS = {
  /** Corner and mesh points may lie outside the output (a picture pinned larger than the screen), this far. */
  point: { min: -1, max: 2 },
  /** Mesh cells per side. */
  meshCells: { min: 1, max: 16 },
  /** Soft-edge width per side, a share of the slice. */
  blendWidth: { min: 0, max: 0.5 },
  blendGamma: { min: 1, max: 3, default: 2.2 },
} as const;

/** The one-frame trial that tells whether a hardware H.264 encoder works on this box (once per encoder per process). */
export const ENCODER_TRIAL_LIMITS = {
  /** A trial still running after this is killed and counts as not working (a hung driver). */
  timeoutMs: 10_000,
  /** The tail of its stderr kept for the reason shown. */
  stderrMaxBytes: 4096,
} as const;

export const PREVIEW_LIMITS = {
  /** MJPEG preview clients at once (503 PREVIEW_LIMIT past it). */
  clients: 16,
  /** Longest edge in pixels, clamped; other values take the default. */
  size: { min: 32, max: 1280, default: 640 },
  fps: { min: 1, max: 30, default: 15 },
  /** A client holding more unsent bytes than this in the HTTP engine (beyond its socket) is closed. */
  clientQueueBytes: 256 * 1024,
  /** A client that has not taken one part in this long is closed (it never reads, or far too slowly). */
  stallMs: 5000,
} as const;

/** Endless chunked answers (the MJPEG preview): how a chunk is handed to the HTTP engine. */
export const STREAM_LIMITS = {
  /**
   * A chunk goes out in slices that fit the engine's cork buffer, so the engine holds at most about one slice
   * beyond the socket (a whole chunk handed at once would sit in its buffer in full).
   */
  sliceBytes: 16 * 1024 - 64,
  /** After the socket was full, the next write is this small: it only drains what the engine holds. */
  probeBytes: 1024,
} as const;

/** The event WebSocket (GET /api/v1/events). */
export const EVENT_LIMITS = {
  /** Default of `server.maxEventClients`; the next connection is closed with 4429. */
  clientsDefault: 256,
  /** A client whose unsent data passes this has its queue dropped and gets a fresh hello once it drains. */
  backpressureBytes: 1024 * 1024,
  /** Largest client message; a larger frame closes the connection (1009). */
  messageMaxBytes: 64 * 1024 + 1024,
  /** Frames past messageMaxBytes up to this are read and answered with close 1009; the engine drops larger ones unread. */
  frameReadMaxBytes: 1024 * 1024,
  /** Connections still waiting to authenticate, counted apart from server.maxEventClients (a newcomer evicts the oldest). */
  pendingMax: 32,
  /** Of those, from one remote address: a newcomer past it evicts that address's oldest waiting socket. */
  pendingPerAddress: 4,
  /** Origin header values longer than this are refused unread: a scheme, a DNS name and a port fit well within it. */
  originMaxLength: 300,
  /** Without a key on the upgrade, the first message must authenticate within this (else 4401). */
  authTimeoutMs: 5000,
  pingIntervalMs: 15_000,
  /** A client that sent nothing (not even a pong) for this long is closed. */
  silenceMs: 45_000,
  /** Requests one socket may have waiting for their answer; past it a request is refused at once (memory stays bounded). */
  requestsInFlight: 64,
} as const;

/** OSC over UDP. */
export const OSC_LIMITS = {
  /** Largest datagram decoded; larger ones are dropped unread. */
  packetMaxBytes: 8192,
  /** Bundle elements applied from one packet (nested bundles count their messages). */
  bundleMaxMessages: 64,
  /** One log line per sender at most this often. */
  logEveryMs: 10_000,
  /** Log lines for all senders together per logEveryMs, so many senders cannot flood the log either. */
  logLinesPerWindow: 16,
  /** Senders remembered for log rate limiting and packet rates; past it new senders share one budget. */
  sendersMax: 256,
  /** Packets per sender address per second; the excess is dropped unread and counted. */
  packetsPerSenderPerSecond: 600,
  /** Packets per second from all senders together. */
  packetsPerSecond: 2000,
  /** Bundles of audio levels sent as feedback per second (the beat and other feedback come on top). */
  audioFeedbackPerSecond: 10,
  /** Longest OSC address string accepted (bytes). */
  addressMaxBytes: 256,
  /** Arguments one message may carry: every vjd address takes at most one. */
  argsMax: 4,
  /** Longest string argument (bytes): ids and names are shorter. */
  stringMaxBytes: 1024,
  /** Bundles nested in bundles. */
  bundleMaxDepth: 4,
  /** Feedback packets per second sent back to the replying sender (replyToSender), so vjd cannot be a reflector. */
  replyPacketsPerSecond: 30,
} as const;

/** Ingest supervision: not in LIMITS, whose shape GET /capabilities reports as is. */
export const INGEST_LIMITS = {
  /** A media file's ffmpeg that writes no frame for this long (or stallFrames of its frame intervals, if longer) is restarted. */
  fileStallMs: 10_000,
  stallFrames: 5,
  /** Restarts of a dead ingest worker back off from the first delay, doubling up to the last. */
  workerRestartFirstMs: 500,
  workerRestartMaxMs: 10_000,
  /** A worker that lived this long counts as healthy: the next restart starts from the first delay. */
  workerStableMs: 30_000,
  /** A reader opened ahead of a cue (POST /sources/warm) is held this long after the last ask. */
  warmHoldMs: 15_000,
  /** Readers held warm at once; a new one lets the oldest go. */
  warmMax: 3,
} as const;

/** Audio input and analysis (workers/audio): not in LIMITS, whose shape GET /capabilities reports as is. */
export const AUDIO_LIMITS = {
  sampleRate: 48_000,
  /** Samples per analysis hop (and the FFT size). */
  hop: 512,
  /** A failing audio ffmpeg is retried after these delays (doubling); a healthy run starts them over. */
  retryFirstMs: 500,
  retryMaxMs: 8000,
  retryStableMs: 10_000,
  /** An input that delivers no samples for this long is restarted (its levels already read 0). */
  stallMs: 3000,
  /** Restarts of a dead audio worker back off from the first delay, doubling up to the last. */
  workerRestartFirstMs: 1000,
  workerRestartMaxMs: 30_000,
  /** A worker that lived this long counts as healthy: the next restart starts from the first delay. */
  workerStableMs: 30_000,
  /** Capture devices (ALSA cards, PulseAudio sources) are looked for again this often (hot-plug). */
  deviceScanMs: 3000,
  /** One device listing: its child's time limit, the output read, and the devices kept. */
  deviceProbeTimeoutMs: 5000,
  deviceProbeMaxBytes: 256 * 1024,
  devicesMax: 64,
  /** A capture device name (it reaches an ffmpeg argument). */
  deviceMaxLength: 256,
  /** Audio inputs in the config file. */
  inputsMax: 32,
  /** A lavfi source description in the config file. */
  sourceMaxLength: 1024,
  /** Audio inputs added over the API (POST /audio/inputs/add), kept in `<dataDir>/audio-inputs.json`. */
  addedMax: 32,
  /** An added input's id and name. */
  idMaxLength: 64,
  nameMaxLength: 128,
  /** An added `stream` input's URL, and an added `file` input's media id or path inside a media root. */
  urlMaxLength: 2048,
  fileMaxLength: 1024,
  /** The file of the added inputs; a bigger one is set aside as unreadable. */
  addedFileMaxBytes: 256 * 1024,
} as const;

/** The tempo clock (workers/audio/clock.ts) and its routes: bounds every request is checked against. */
export const TEMPO_LIMITS = {
  bpmMin: 20,
  bpmMax: 300,
  /** A tap this long after the previous one starts a new tap sequence. */
  tapResetMs: 2000,
  /** Tap intervals kept for the median: older ones drop out, so a burst of taps costs bounded work. */
  tapIntervals: 8,
  /** POST /tempo/nudge moves the phase by at most this much either way. */
  nudgeMaxMs: 1000,
  /** The tracker's search range: max at least this ratio of min, so a tempo drifting a little stays inside it. */
  rangeMinRatio: 1.2,
  /** config/state audio.offsetMs. */
  offsetMaxMs: 500,
  beatsPerBarMax: 16,
} as const;

/** ISF `IMPORTED` images: bounded per shader file so one file cannot pin unbounded decoded memory. */
export const ISF_IMPORTED_LIMITS = {
  /** Images one ISF file may import. */
  maxPerFile: 8,
  /** Widest and tallest image, in pixels (also below every GL's texture size floor we run on). */
  maxSide: 4096,
  /** RGBA bytes of one decoded image (so a square image is at most 2048 × 2048). */
  maxDecodedBytes: 16 * 1024 * 1024,
  /** Bytes of one image file on disk, checked before decoding. */
  maxFileBytes: 16 * 1024 * 1024,
  /** Characters of a PATH in the header. */
  pathMaxLength: 255,
} as const;

/**
 * The desktop-GLSL rewrite of an ISF shader that does not compile as written (workers/render/glsl-dialect): it runs
 * synchronously in the render worker, so its input is bounded. A shader past a bound keeps its original error.
 */
export const ISF_DIALECT_LIMITS = {
  /** Source characters of one stage (the parser costs tens of microseconds per character on a loaded box). */
  sourceMaxLength: 32 * 1024,
  /** Bracket nesting ( [ { of the source, checked before parsing (the parser and the typing recurse on it). */
  nestingMax: 64,
  /** Expression nodes the typing visits in one stage. */
  nodesMax: 50_000,
  /** Depth of the typing's recursion over one expression (a long `a + a + …` chain is a deep tree). */
  depthMax: 256,
} as const;

/** Caches of encoded images that a show fills (their figures: /status `thumbnails.cache` and `thumbnails.posters`). */
export const IMAGE_CACHE_LIMITS = {
  /** Encoded thumbnails kept for repeat requests: bytes and entries (least recently used dropped first). */
  thumbnailCacheBytes: 16 * 1024 * 1024,
  thumbnailCacheEntries: 256,
  /**
   * An effect thumbnail's render budget: drawn once and cached, it may take a first compile and a shader's first
   * draw, which a loaded machine stretches past the live thumbnails' budget.
   */
  effectReadbackTimeoutMs: 3000,
  /** Effect thumbnails kept apart (drawn once per effect file and size): live images never push them out. */
  effectThumbCacheBytes: 4 * 1024 * 1024,
  effectThumbCacheEntries: 128,
  /** Media poster files kept in `<dataDir>/cache/posters` (the oldest go first). */
  posterFilesMax: 2000,
} as const;

/** ISF programs the render worker keeps compiled ahead, and the catalog's list of files that did not load. */
export const ISF_CACHE_LIMITS = {
  /** Spare effect and generator programs kept compiled (least recently used dropped first); the rest compile on use. */
  programCacheMax: 64,
  /** Spare transition programs kept compiled (the mixer's own pool). */
  transitionCacheMax: 16,
  /** Fused programs of effect runs kept compiled (the current chain's and the most recently drawn ones). */
  fusedCacheMax: 32,
  /** One-pass layer compositions kept compiled, by blend-mode sequence (least recently drawn dropped first). */
  composeCacheMax: 16,
  /** Files GET /catalog/errors lists at most (the rest are counted). */
  catalogErrorsMax: 500,
  /** A load or compile message is cut to this many characters (a GL log can be long). */
  loadErrorMessageMax: 1000,
} as const;

/** Modulation (src/shared/modulation.ts, workers/render/modulation): not in LIMITS, whose shape GET /capabilities reports as is. */
export const MOD_LIMITS = {
  /** Highest LFO or step rate in Hz. */
  maxHz: 50,
  /** Most steps in one sequence. */
  maxSteps: 64,
  /** Most modulators on one chain effect or on the program generator. */
  perTarget: 64,
  /** Live reports (render worker to main thread) per second at most, sent only while modulators exist. */
  liveHz: 20,
  /** Audio level (0..1, after the analysis' automatic gain) below which the input counts as silent for modulators. */
  silenceFloor: 0.01,
  /** No analysis hop newer than this many ms before a frame: the audio feed counts as stopped for modulators. */
  audioStaleMs: 500,
} as const;

/** Media transport (POST /transport/*): not in LIMITS, whose shape GET /capabilities reports as is. */
export const TRANSPORT_LIMITS = {
  speedMin: 0.1,
  speedMax: 4,
  /** `sync`: the in-out span lasts this many beats at most. */
  beatsMax: 256,
  /** Named cue points per media file, and the length of a name. */
  cuesMax: 32,
  cueNameMaxLength: 64,
  /** Media files whose transport settings are kept; past it the least recently changed are forgotten. */
  savedMax: 1000,
  /** A seek (or a command that needs a new reader) answers within this, or 504 ACTIVATION_TIMEOUT. */
  seekTimeoutMs: 5000,
  /** Loop mode `ping-pong` keeps one pass of the in-out span decoded (RGBA at the render size): at most this many bytes. */
  pingPongMaxBytes: 256 * 1024 * 1024,
  /** A clip chasing timecode is sought back once it drifts this far (default, least, most). */
  chaseThresholdDefaultMs: 120,
  chaseThresholdMinMs: 40,
  chaseThresholdMaxMs: 2000,
} as const;

/** Layers and scenes: not in LIMITS, whose shape GET /capabilities reports as is. */
export const LAYER_LIMITS = {
  /** render.maxLayers may not exceed this (the compositor's samplers and the frame budget). */
  maxLayersCeiling: 8,
  nameMax: 64,
  /** Saved scenes at most (403 SCENE_LIMIT_REACHED past it). */
  scenesMax: 64,
  sceneNameMax: 64,
} as const;

/** Operations scheduled to an instant (`at` on a POST, src/schedule): not in LIMITS, whose shape GET /capabilities reports as is. */
export const SCHEDULE_LIMITS = {
  /** Operations waiting at once (503 SCHEDULE_FULL past it). */
  waitingMax: 256,
  /** How far ahead an instant may lie (422 AT_TOO_FAR past it). */
  aheadMaxMs: 10 * 60_000,
  /** Applied or failed operations GET /show/scheduled keeps listing. */
  recentMax: 32,
  /** Longest `at` string (an ISO instant with nanoseconds and an offset fits). */
  atMaxLength: 40,
  /** Highest absolute beat number `{beat}` takes. */
  beatMax: 1e9,
} as const;

/** DMX over the network (Art-Net ArtDmx and sACN E1.31 data packets). */
export const DMX_LIMITS = {
  /** Largest datagram read: a full sACN data packet (its header and a whole universe) fits; larger ones are refused unread. */
  packetMaxBytes: 638,
  /** Packets per sender address per second, well above a desk's full frame rate on a few universes; the excess is dropped unread and counted. */
  packetsPerSenderPerSecond: 400,
  /** Packets per second from all senders together. */
  packetsPerSecond: 1200,
  /** Senders remembered for packet budgets; past it new senders share one budget. */
  sendersMax: 64,
  /** Default signal-loss time (ms) before `dmx.lossAction` applies. */
  lossMsDefault: 2000,
  /** sACN sources (CIDs) tracked on the universe, enough for a main and a backup desk and a few more; a further source is ignored and counted until one leaves. */
  sacnSourcesMax: 8,
  /** Layers and effect parameters the personality can address, so its footprint stays within one universe. */
  layersMax: 8,
  paramsMax: 16,
} as const;

/** MIDI controllers. */
export const MIDI_LIMITS = {
  /** Messages per port per second read; the excess is dropped unread and counted. */
  messagesPerPortPerSecond: 1000,
  /** Messages per second over all ports together. */
  messagesPerSecond: 3000,
  /** Mappings held (config, the mappings folder and learned ones together). */
  mappingsMax: 512,
  /** Bytes of one mappings file read from the mappings folder. */
  mappingFileMaxBytes: 256 * 1024,
  /** How long POST /midi/learn waits for a message. */
  learnTimeoutMs: 10_000,
  /** Port names: longer ones are cut. */
  portNameMaxLength: 128,
  /** How often the ports are listed again (hot-plug). */
  portScanMs: 2000,
  /** Feedback messages kept for GET /midi's recent list. */
  recentFeedback: 32,
  /** Feedback messages sent per second over all ports, so a burst of state changes cannot flood a controller. */
  feedbackPerSecond: 1000,
} as const;

/** Files vjd reads from its data dir (beside the watched folders' own limits): a bigger one is refused unread. */
export const DATA_FILE_LIMITS = {
  /** state.json, scenes and chains included; a bigger one is set aside as unreadable. */
  stateFileMaxBytes: 64 * 1024 * 1024,
  /** outputs.json, the outputs added over the API. */
  outputsFileMaxBytes: 1024 * 1024,
  /** The media probe cache, one entry per media file. */
  probeCacheMaxBytes: 64 * 1024 * 1024,
  /** A scene's image: a PNG at most the scene image box. */
  sceneImageMaxBytes: 8 * 1024 * 1024,
  /** One file of the control page's bundle. */
  uiFileMaxBytes: 32 * 1024 * 1024,
} as const;

/** The MQTT show link (docs/show.md): names, payloads and pacing of what a box reads from and sends to the broker. */
export const SHOW_LIMITS = {
  /** Show, box and group names: each is one topic level. */
  nameMaxLength: 64,
  /** Groups one box belongs to. */
  groupsMax: 16,
  /** Largest command payload read; a larger one is counted (`oversized`) and dropped unparsed. */
  commandMaxBytes: 64 * 1024,
  /** Largest MQTT packet the broker may send this box at all (told at connect). */
  packetMaxBytes: 4 * 1024 * 1024,
  /** A command's `id`, which names its reply topic. */
  idMaxLength: 64,
  /** A command's `op` ("POST /api/v1/…"). */
  opMaxLength: 512,
  /** Largest reply payload sent; a larger route answer goes out without its body. */
  replyMaxBytes: 64 * 1024,
  /** Largest box state read from another box; a larger one is ignored. */
  stateMaxBytes: 4096,
  /** Boxes listed by GET /show; a further box is left out until the show restarts. */
  boxesMax: 256,
  /** Largest leader tempo payload read, and the bars per beat it may name. */
  tempoMaxBytes: 1024,
  beatsPerBarMax: 32,
  /** Beat grids closer than these are the same: no message, no lock (a tracker gliding by less is not news). */
  bpmEpsilon: 0.005,
  beatEpsilon: 0.002,
  /** How often a leader looks at its tempo clock. */
  tempoCheckMs: 250,
  /** A leader sends its grid at least this often, for a broker that restarted without its retained messages. */
  tempoRepublishMs: 10_000,
  /** Commands waiting to apply; past it a command is dropped and counted. */
  pendingMax: 256,
  /** Shortest time between two state publishes: changes in between are coalesced. */
  stateMinIntervalMs: 250,
  /** State is compared with the last one sent this often, so changes no bus topic signals (fps, BPM) still go out. */
  stateCheckMs: 1000,
  /** Reconnect backoff: the first wait after a lost or refused connection, doubled per failure up to the max. */
  reconnectMinMs: 1000,
  reconnectMaxMs: 30_000,
  /** MQTT keepalive (s): a box cut off without closing its connection is marked offline (its last will) within 1.5 of it. */
  keepaliveS: 10,
  /** How long one connection attempt may take. */
  connectTimeoutMs: 10_000,
  /** The password file and each TLS file: larger ones are refused unread. */
  passwordFileMaxBytes: 4096,
  tlsFileMaxBytes: 1024 * 1024,
} as const;

/** Timecode in (src/timecode) and the cue list (src/cues). */
export const TIMECODE_LIMITS = {
  /** Longest freewheel the config takes. */
  freewheelMaxMs: 10_000,
  /** Highest audio channel an LTC reader picks. */
  ltcChannelMax: 8,
} as const;

export const CUE_LIMITS = {
  /** Cues in the list (403 CUE_LIMIT_REACHED past it). */
  cuesMax: 500,
  nameMax: 64,
  /** Operations one cue runs. */
  actionsMax: 16,
  /** Bytes of one action's body as JSON. */
  actionBodyMaxBytes: 4096,
  /** Longest follow delay. */
  followMaxMs: 10 * 60_000,
  /** Most beats or bars a beat trigger waits. */
  beatsMax: 1024,
  /** How long before its instant a cue's operations are handed to the scheduler (they apply on the instant's frame). */
  leadMs: 400,
  /** Cues fired kept in GET /cues's `recent`. */
  recentMax: 16,
} as const;

/** Pixel mapping (src/pixelmap, workers/pixelout). */
export const PIXELMAP_LIMITS = {
  /** Fixtures in the patch. */
  fixturesMax: 512,
  /** Pixels over all fixtures: one texel each in the sampling texture read back every frame. */
  pixelsMax: 16_384,
  /** Universes over all destinations: each is a packet per send. */
  universesMax: 64,
  /** DMX512 refreshes at most about 44 times a second; faster sends only load the nodes. */
  rateMaxHz: 44,
  rateDefaultHz: 40,
  /** An unchanged universe is sent again this often, so a node does not count the stream as lost. */
  keepAliveDefaultMs: 1000,
  keepAliveMinMs: 100,
  /** Under sACN's 2.5 s loss timeout. */
  keepAliveMaxMs: 2000,
  /** Allowed destinations in the config. */
  destinationsMax: 32,
  /** The sender worker's restart backoff after a crash. */
  workerRestartFirstMs: 500,
  workerRestartMaxMs: 10_000,
  /** A worker that ran this long before dying starts over at the first delay. */
  workerStableMs: 30_000,
} as const;
