// GET /status: application name and version, server state, uptime, HTTP engine, render stats; open without a key.
import Type, { type Static } from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { HttpEngine } from '../http/uws.js';
import type { ListenerStatus } from '../http/listener.js';
import type { LicenseCheck } from '../license/license.js';
import type { LoadedConfig } from '../config/load.js';
import type { NetworkAddress } from '../util/network.js';
import type { ReloadError } from '../config/reload.js';
import { H264_ENCODERS } from '../shared/output-kinds/encoders.js';
import { nullableOf } from './outputs.js';
import { PixelmapStatusSchema } from './pixelmap-schemas.js';

const Address = Type.Object({
  address: Type.String(),
  family: Type.Union([Type.Literal('IPv4'), Type.Literal('IPv6')]),
  interface: Type.String(),
  url: Type.String({ description: 'base URL other devices can use' }),
});

export const StatusBody = Type.Object({
  name: Type.Literal('vjd'),
  version: Type.String(),
  apiVersion: Type.Literal('v1'),
  status: Type.Union([Type.Literal('Server Running'), Type.Literal('Server Starting'), Type.Literal('Server Disabled')], {
    description: 'status indicator; a client that can read this is talking to a running server',
  }),
  reason: Type.Union([Type.String(), Type.Null()], {
    description:
      'why the server still answers on an older address than the configured one (the wanted host:port and the bind error; retried with backoff); null otherwise',
  }),
  reloadError: Type.Union(
    [
      Type.Object({
        key: Type.Union([Type.String(), Type.Null()], {
          description: 'the dotted config key at fault; null when the whole file is (unreadable, not JSON)',
        }),
        file: Type.String({ description: 'the config file' }),
        message: Type.String({ description: 'what is wrong, naming the key and file' }),
        at: Type.String({ format: 'date-time', description: 'when the reload was refused' }),
      }),
      Type.Null(),
    ],
    {
      description:
        'the last config reload that was refused (the server keeps the last good config); null once a reload succeeds, and at start',
    },
  ),
  uptimeSeconds: Type.Number(),
  startedAt: Type.String({ format: 'date-time' }),
  server: Type.Object({
    host: Type.String(),
    port: Type.Integer(),
    apiKeyRequired: Type.Boolean(),
    addresses: Type.Array(Address, { description: 'addresses for other devices; empty when bound to loopback' }),
  }),
  httpEngine: Type.Object({
    name: Type.Literal('uWebSockets.js'),
    native: Type.Boolean({ description: 'false means the slow pure-JS fallback is serving (logged as an error at start)' }),
    binary: Type.String(),
    packageVersion: Type.String(),
  }),
  license: Type.Object({ tier: Type.String(), effectCeiling: Type.Integer() }),
  render: Type.Object({
    running: Type.Boolean({ description: 'true while the render worker answers (heartbeat within 1000 ms)' }),
    width: Type.Integer(),
    height: Type.Integer(),
    targetFps: Type.Number(),
    fps: Type.Number({ description: 'frames rendered in the last second' }),
    frameMsP50: Type.Number({ description: 'median frame time over the recent frames (ms)' }),
    frameMsP99: Type.Number({ description: '99th percentile frame time (ms)' }),
    droppedFrames: Type.Integer({ description: 'frame slots skipped because a frame ran late' }),
    frames: Type.Integer({ description: 'frames rendered since start' }),
    renderer: Type.String({ description: 'GL renderer and version strings' }),
    contextRestarts: Type.Integer({ description: 'times the GL context was rebuilt after about 1 s of failing frames' }),
    display: Type.String({ description: 'X display headless-gl renders through (own Xvfb or inherited $DISPLAY)' }),
    gl: Type.Object(
      {
        textures: Type.Integer(),
        programs: Type.Integer(),
        framebuffers: Type.Integer(),
        buffers: Type.Integer(),
        shaders: Type.Integer(),
        renderbuffers: Type.Integer(),
      },
      { description: 'GL objects alive; steady values mean no leaks' },
    ),
    programs: Type.Object(
      {
        cached: Type.Integer({ minimum: 0, description: 'spare programs compiled ahead and held now' }),
        limit: Type.Integer({ minimum: 0, description: 'the most kept (effects and generators, plus transitions)' }),
      },
      { description: 'the program cache: a type without a spare compiles when it is used' },
    ),
    passes: Type.Integer({
      description: 'effect passes per frame: a fused run of effects counts one, a multi-pass effect each of its passes',
    }),
    fusedRuns: Type.Array(Type.Array(Type.String()), {
      description:
        'runs of consecutive enabled effects drawn as one fused pass (config render.fuse), each as its effect types in chain order',
    }),
    fusedPrograms: Type.Object(
      {
        cached: Type.Integer({ minimum: 0, description: 'fused programs compiled and held now' }),
        limit: Type.Integer({ minimum: 0, description: 'the most kept (least recently drawn dropped first)' }),
      },
      { description: 'the fused-program cache: one entry per run of effects drawn fused, the current chain first' },
    ),
    programCompiles: Type.Object(
      { ahead: Type.Integer(), onDemand: Type.Integer(), pending: Type.Integer() },
      {
        description:
          'ISF programs compiled ahead (catalog load, used spares replaced between frames) and on demand (no spare was ready: the frame loop waited for the compile); pending: used spares still to be replaced',
      },
    ),
    scale: Type.Number({
      description:
        'the factor of width × height the sources, chain and blends draw at now (config render.scale; with "auto" it follows the frame time); the picture is scaled up once into the output size',
    }),
    renderWidth: Type.Integer({ description: 'the size drawn at now (width × scale); ISF RENDERSIZE' }),
    renderHeight: Type.Integer({ description: 'height × scale' }),
    scaleLimit: Type.Object(
      {
        by: Type.Union([Type.Literal('render'), Type.Literal('readback'), Type.Literal('encode'), Type.Literal('main'), Type.Null()], {
          description:
            'what holds an automatic scale below 1: the frame time (render), the program readback, encoders dropping frames (encode) or the main thread running late (main); null at full size',
        }),
        frameMs: Type.Number({ description: 'median frame time the choice was made on (ms)' }),
        readbackMs: Type.Number({
          description:
            'median time per frame of the program readback and the output-map passes (ms; 0 without an output, and unless render.scale is "auto")',
        }),
        encodeDropPct: Type.Number({ description: 'frames the outputs dropped over the last second, in % of frames offered' }),
        mainLagMs: Type.Number({ description: "the main thread's event-loop delay over the last second, p90 (ms)" }),
      },
      { description: 'why the render scale is where it is, with the figures' },
    ),
    readback: Type.Object(
      {
        layout: Type.Union([Type.Literal('i420'), Type.Literal('rgba')], {
          description:
            'how program frames go to the outputs: I420 packed on the GPU, or RGBA converted by each encoder (config render.readback)',
        }),
        i420Ms: Type.Union([Type.Number(), Type.Null()], {
          description: 'measured cost of one I420 pack and read at start (ms); null when not measured',
        }),
        rgbaMs: Type.Union([Type.Number(), Type.Null()], {
          description: 'measured cost of one RGBA read at start (ms); null when not measured',
        }),
      },
      { description: 'the program readback layout and what chose it' },
    ),
  }),
  thumbnails: Type.Object(
    {
      requests: Type.Integer({ description: 'thumbnail requests that named a known subject' }),
      notModified: Type.Integer({ description: 'answered 304 from counters, before any work was queued' }),
      cacheHits: Type.Integer({ description: 'answered from the encoded-image cache without new work' }),
      timeouts: Type.Integer({ description: '503 PREVIEW_TIMEOUT answers' }),
      placeholders: Type.Integer({ description: 'placeholder cards rendered' }),
      previewsOpen: Type.Integer({ description: 'live inputs open for preview only' }),
      from: Type.Object(
        {
          readback: Type.Integer({ description: 'scaled in the encode pool from the program readback an output or preview runs' }),
          render: Type.Integer({ description: 'drawn by the render worker (no readback was running)' }),
        },
        { description: 'where output thumbnails came from' },
      ),
      renderJobs: Type.Integer({ description: "jobs handed to the render worker's thumbnail stage (every subject)" }),
      refreshesHeld: Type.Integer({
        description: 'program and layer thumbnail requests answered with an earlier frame because the pipeline was short',
      }),
      queue: Type.Object(
        {
          depth: Type.Integer({ description: 'queued plus running jobs' }),
          queued: Type.Integer(),
          running: Type.Integer(),
          rejecting: Type.Boolean({ description: 'true from a rejection above depth 32 until the depth falls to 16' }),
          jobs: Type.Integer({ description: 'jobs created (render and/or encode work)' }),
          shared: Type.Integer({ description: 'requests that joined an identical job in flight' }),
          rejected: Type.Integer({ description: '503 THUMBNAIL_QUEUE_FULL answers' }),
          completed: Type.Integer(),
          failed: Type.Integer(),
        },
        { description: 'the admission queue (32/16 hysteresis)' },
      ),
      encoder: Type.Object(
        { threads: Type.Integer(), queued: Type.Integer(), running: Type.Integer(), completed: Type.Integer(), encodeMsP50: Type.Number() },
        { description: 'the encode pool' },
      ),
      posters: Type.Object(
        { hits: Type.Integer(), misses: Type.Integer(), extracting: Type.Integer(), entries: Type.Integer() },
        { description: 'media poster cache' },
      ),
      cache: Type.Object({ entries: Type.Integer(), bytes: Type.Integer() }, { description: 'encoded-image cache' }),
    },
    { description: 'thumbnail pipeline counters' },
  ),
  outputs: Type.Object(
    {
      count: Type.Integer({ description: 'outputs defined (config file and added)' }),
      enabled: Type.Integer(),
      running: Type.Integer(),
      framesSent: Type.Integer(),
      framesDropped: Type.Integer(),
      framesRepeated: Type.Integer(),
      encoders: Type.Array(
        Type.Object({
          id: Type.String({ description: 'the encoder, e.g. "enc-1"' }),
          outputs: Type.Array(Type.String(), { description: 'ids of the stream outputs its one encode feeds' }),
        }),
        {
          description:
            'shared encoders running now: streams (and recordings, config recordings.shareEncoder) with the same encoder, size, fps and bitrate share one',
        },
      ),
      autoEncoder: nullableOf(
        H264_ENCODERS,
        'the H.264 encoder `encoder: "auto"` resolved to on this box (the first hardware encoder whose one-frame trial worked, else `libx264`); null until an output first needed it',
      ),
      preview: Type.Object(
        {
          clients: Type.Integer({ description: 'open MJPEG preview streams' }),
          encodes: Type.Integer({ description: 'JPEG encodes since start: one per frame per (size, fps), however many clients share it' }),
          framesSent: Type.Integer({ description: 'parts written to preview clients' }),
          framesSkipped: Type.Integer({ description: 'parts a client missed because it had not taken the previous one yet' }),
          ticksShed: Type.Integer({
            description: 'preview ticks let pass while the pipeline was short (render.scaleLimit encode or main)',
          }),
          queuedBytes: Type.Integer({
            description: 'bytes the HTTP engine holds for preview clients beyond their sockets now (an upper bound)',
          }),
          queuedBytesMax: Type.Integer({ description: 'the most one preview client had queued since start' }),
          clientsDropped: Type.Integer({ description: 'preview clients closed because they took no frame for too long' }),
        },
        { description: 'GET /output/preview.mjpeg' },
      ),
    },
    { description: 'streams and recordings (GET /outputs has each one) and the MJPEG preview' },
  ),
  events: Type.Object(
    {
      clients: Type.Integer({ description: 'open event WebSockets (GET /api/v1/events)' }),
      messagesIn: Type.Integer({ description: 'messages received from event clients since start' }),
      malformed: Type.Integer({ description: 'of those, answered with an error message' }),
      resyncs: Type.Integer({ description: 'times a slow client had its queue dropped (it gets a fresh hello once it drains)' }),
    },
    { description: 'the event WebSocket' },
  ),
  osc: Type.Object(
    {
      listening: Type.Boolean({ description: 'false while osc.enabled is false or the port could not be bound' }),
      host: Type.String(),
      port: Type.Integer(),
      packets: Type.Integer({ description: 'UDP packets received since start' }),
      applied: Type.Integer({ description: 'messages that changed state' }),
      rejected: Type.Integer({
        description: 'packets and messages refused (malformed, unknown address, wrong type, refused by the route)',
      }),
      dropped: Type.Integer({
        description: 'packets dropped unread: over the per-sender or overall packets per second, or past the backlog',
      }),
      malformed: Type.Integer({
        description: 'packets refused unread by the structure and type-tag check (never applied); counted in rejected too',
      }),
      replyDropped: Type.Integer({
        description: 'feedback packets not sent back to the sender (osc.replyToSender) because of its per-second budget',
      }),
      restricted: Type.Union([Type.String(), Type.Null()], {
        description:
          'why OSC was moved to loopback while running (a reload set an API key while OSC listened beyond loopback without osc.allowRemote); null otherwise',
      }),
    },
    { description: 'OSC control (osc.*)' },
  ),
  audio: Type.Object(
    {
      input: Type.Union([Type.String(), Type.Null()], { description: 'the selected audio input id; null when none' }),
      state: Type.Union([Type.Literal('stopped'), Type.Literal('starting'), Type.Literal('running'), Type.Literal('retrying')]),
      hopMs: Type.Number({ description: 'analysis time of one hop in the audio worker (ms, smoothed)' }),
    },
    { description: 'the audio input (GET /audio)' },
  ),
  pixelmap: PixelmapStatusSchema,
});

export type RenderStatus = Static<typeof StatusBody>['render'];
export type ThumbnailStatus = Static<typeof StatusBody>['thumbnails'];

/** What GET /status reads of the running application (src/api/context.ts builds on it; this module imports no context). */
export interface StatusContext {
  readonly name: 'vjd';
  readonly version: string;
  readonly startedAt: Date;
  readonly engine: HttpEngine;
  config(): LoadedConfig;
  listener(): ListenerStatus;
  addresses(): NetworkAddress[];
  license(): LicenseCheck;
  apiKeyRequired(): boolean;
  /** Render statistics (a new object only when they change). */
  render(): RenderStatus;
  /** Thumbnail pipeline counters, and a number that changes whenever they do (memoised status bodies). */
  thumbnails(): ThumbnailStatus;
  thumbnailsVersion(): number;
  /** Outputs summary, and a number that changes whenever it may have. */
  outputs(): Static<typeof StatusBody>['outputs'];
  outputsVersion(): number;
  /** Event WebSocket and OSC counters, and a number that changes whenever they do. */
  events(): Static<typeof StatusBody>['events'];
  osc(): Static<typeof StatusBody>['osc'];
  eventsVersion(): number;
  /** The audio input and the worker's hop time. */
  audio(): Static<typeof StatusBody>['audio'];
  /** Pixel mapping and its sender's packet rate (a new object only when a figure changes). */
  pixelmap(): Static<typeof StatusBody>['pixelmap'];
  /** The last refused config reload (a new object on change), or null. */
  reloadError(): ReloadError | null;
}

export function statusRoutes(ctx: StatusContext): RouteDef[] {
  // GET /status is the most polled route (health checks, every panel). Its inputs are immutable objects replaced
  // on change, so the serialized body is reused while they are the same and uptime (0.1 s resolution) has not moved.
  let memo: {
    tick: number;
    thumbs: number;
    outs: number;
    evs: number;
    render: unknown;
    config: unknown;
    license: unknown;
    listener: unknown;
    addresses: unknown;
    apiKey: boolean;
    reload: unknown;
    audio: Static<typeof StatusBody>['audio'];
    pixelmap: unknown;
    text: Buffer;
  } | null = null;
  const render = (): Buffer => {
    const loaded = ctx.config();
    const lic = ctx.license();
    const l = ctx.listener();
    const addresses = ctx.addresses();
    const apiKey = ctx.apiKeyRequired();
    const tick = Math.round((Date.now() - ctx.startedAt.getTime()) / 100);
    const renderStatus = ctx.render();
    const thumbs = ctx.thumbnailsVersion();
    const outs = ctx.outputsVersion();
    const evs = ctx.eventsVersion();
    const reload = ctx.reloadError();
    const audio = ctx.audio();
    const pixelmap = ctx.pixelmap();
    if (
      memo &&
      memo.tick === tick &&
      memo.thumbs === thumbs &&
      memo.outs === outs &&
      memo.evs === evs &&
      memo.render === renderStatus &&
      memo.config === loaded &&
      memo.license === lic &&
      memo.listener === l &&
      memo.addresses === addresses &&
      memo.apiKey === apiKey &&
      memo.reload === reload &&
      memo.audio.input === audio.input &&
      memo.audio.state === audio.state &&
      memo.audio.hopMs === audio.hopMs &&
      memo.pixelmap === pixelmap
    ) {
      return memo.text;
    }
    const text = Buffer.from(
      JSON.stringify({
        name: ctx.name,
        version: ctx.version,
        apiVersion: 'v1',
        status: l.state,
        reason: l.reason,
        reloadError: reload,
        uptimeSeconds: tick / 10,
        startedAt: ctx.startedAt.toISOString(),
        server: { host: l.host, port: l.port, apiKeyRequired: apiKey, addresses },
        httpEngine: ctx.engine,
        license: lic.valid ? { tier: lic.tier, effectCeiling: lic.effectCeiling } : { tier: 'none', effectCeiling: 0 },
        render: renderStatus,
        thumbnails: ctx.thumbnails(),
        outputs: ctx.outputs(),
        events: ctx.events(),
        osc: ctx.osc(),
        audio,
        pixelmap,
      }),
    );
    memo = {
      tick,
      thumbs,
      outs,
      evs,
      render: renderStatus,
      config: loaded,
      license: lic,
      listener: l,
      addresses,
      apiKey,
      reload,
      audio,
      pixelmap,
      text,
    };
    return text;
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/status`,
      auth: 'none',
      operationId: 'getStatus',
      summary: 'Server status, application name and version',
      description:
        'Always reachable without an API key. Reports the status indicator, uptime, the HTTP engine (native or fallback), license tier and render settings.',
      tags: ['server'],
      feature: 'status',
      schema: {},
      responses: { 200: { description: 'status', schema: StatusBody } },
      errors: [],
      handler: () => ({ jsonText: render() }),
    }),
  ];
}
