// Config file schema (TypeBox), the fully-resolved Config type and the embedded defaults (DESIGN.md section 4).
import Type, { type Static, type TSchema } from 'typebox';
import { EVENT_LIMITS, LAYER_LIMITS } from '../limits.js';
import { OUTPUT_KIND_LIST, OUTPUT_KINDS, type OutputFields, type OutputKind } from '../shared/output-kinds/index.js';
import type { KindField } from '../shared/output-kinds/types.js';
import { AudioConfigSchema, DEFAULT_AUDIO, type AudioConfig } from './audio.js';
import { InputUrl } from './input-url.js';
import { DEFAULT_DMX, DEFAULT_MIDI, DmxConfigSchema, MidiConfigSchema, type DmxConfig, type MidiConfig } from './desks.js';
import { ShowConfigSchema, type ShowConfig } from './show.js';
import { DEFAULT_TIMECODE, TimecodeConfigSchema, type TimecodeConfig } from './timecode.js';
import { DEFAULT_PIXELMAP, PixelmapConfigSchema, type PixelmapConfig } from './pixelmap.js';

// Every leaf carries a `description` phrased as "must be <description>": the loader builds its
// error messages from it, so an operator reads the limit instead of a JSON Schema keyword.

const NO_NUL = '^[^\\x00]*$';

/** A filesystem path: a NUL byte would be cut off by the OS, so it is refused up front. */
export const PathSchema = Type.String({
  minLength: 1,
  maxLength: 4096,
  pattern: NO_NUL,
  description: 'a path of 1 to 4096 characters',
});

const PathList = Type.Array(PathSchema, {
  maxItems: 64,
  description: 'a list of at most 64 paths, each 1 to 4096 characters',
});

const Id = Type.String({
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'an id of 1 to 64 characters from A-Z a-z 0-9 _ -',
});

const Name = Type.String({ minLength: 1, maxLength: 128, description: 'a name of 1 to 128 characters' });

function integer(min: number, max: number) {
  return Type.Integer({ minimum: min, maximum: max, description: `an integer from ${min} to ${max}` });
}

function flag() {
  return Type.Boolean({ description: 'true or false' });
}

function dirs() {
  return Type.Object({ dirs: Type.Optional(PathList) }, { additionalProperties: false, description: 'an object' });
}

export const PortSchema = integer(1024, 65535);

// Length only: the loader checks the form (IP literal or host name) and resolves names (src/config/host.ts).
export const HostSchema = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'an IP address or a host name of 1 to 255 characters',
});

// The key travels in an HTTP header, so only visible ASCII can ever match a request.
export const ApiKeyStringSchema = Type.String({
  minLength: 1,
  maxLength: 1024,
  pattern: '^[\\x21-\\x7E]*$',
  description: 'a key of 1 to 1024 visible ASCII characters (no spaces)',
});

// What a browser sends as Origin: scheme, host and port only, so a path or a trailing slash could never match.
const PORT_PATTERN = '([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
const OriginSchema = Type.String({
  minLength: 1,
  maxLength: EVENT_LIMITS.originMaxLength,
  pattern: `^[Hh][Tt][Tt][Pp][Ss]?://(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:${PORT_PATTERN})?$`,
  description: `an origin such as "https://panel.example:8443" (http or https, a host, an optional port, no path; at most ${EVENT_LIMITS.originMaxLength} characters)`,
});

const ApiKey = Type.Union([Type.Null(), ApiKeyStringSchema], {
  description: 'null or a key of 1 to 1024 visible ASCII characters (no spaces)',
});

// DER SPKI public keys, standard base64 with padding.
const TrustedKey = Type.String({
  minLength: 4,
  maxLength: 1024,
  pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
  description: 'a base64 string of 4 to 1024 characters',
});

const TestInput = Type.Object(
  {
    id: Id,
    name: Name,
    pattern: Type.String({ minLength: 1, maxLength: 1024, description: 'an ffmpeg lavfi source of 1 to 1024 characters' }),
  },
  { additionalProperties: false, description: 'an object {id, name, pattern}' },
);

const StreamInput = Type.Object(
  {
    id: Id,
    name: Name,
    url: InputUrl,
  },
  { additionalProperties: false, description: 'an object {id, name, url}' },
);

// Each kind's own fields come from its descriptor (src/shared/output-kinds/), which also holds the kind-specific
// rules (a stream needs an allowed URL, a record takes none, a display a local X display, a v4l2 output a
// /dev/video<N> device) that the loader checks after this schema.
function kindField(f: KindField): TSchema {
  if (f.type === 'integer') return integer(f.min, f.max);
  if (f.type === 'enum') {
    const names = f.values.map((v) => JSON.stringify(v));
    return Type.Union(
      f.values.map((v) => Type.Literal(v)),
      { description: `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` },
    );
  }
  const example = f.example === undefined ? '' : ` such as ${JSON.stringify(f.example)}`;
  return Type.String({ minLength: 1, maxLength: f.maxLength, description: `${f.what} of 1 to ${f.maxLength} characters${example}` });
}
const kindFields = Object.fromEntries(
  OUTPUT_KIND_LIST.flatMap((k) => Object.entries(k.fields)).map(([name, f]) => [name, Type.Optional(kindField(f))]),
);
const kindNames = OUTPUT_KINDS.map((k) => JSON.stringify(k));

const Output = Type.Object(
  {
    id: Id,
    name: Type.Optional(Name),
    kind: Type.Union(
      OUTPUT_KINDS.map((k) => Type.Literal(k)),
      { description: `${kindNames.slice(0, -1).join(', ')} or ${kindNames[kindNames.length - 1]}` },
    ),
    enabled: flag(),
    width: Type.Optional(integer(16, 7680)),
    height: Type.Optional(integer(16, 4320)),
    fps: Type.Optional(integer(1, 120)),
    ...kindFields,
  },
  {
    additionalProperties: false,
    description: `an object {id, name?, kind, enabled, width?, height?, fps?, ${Object.keys(kindFields)
      .map((f) => `${f}?`)
      .join(', ')}}`,
  },
);

export const ConfigFileSchema = Type.Object(
  {
    dataDir: Type.Optional(PathSchema),
    server: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(flag()),
          host: Type.Optional(HostSchema),
          port: Type.Optional(PortSchema),
          apiKey: Type.Optional(ApiKey),
          allowedHosts: Type.Optional(
            Type.Array(HostSchema, { maxItems: 64, description: 'a list of at most 64 host names (Host header values vjd answers for)' }),
          ),
          allowPrivateNetwork: Type.Optional(flag()),
          allowedOrigins: Type.Optional(
            Type.Array(OriginSchema, {
              maxItems: 64,
              description: 'a list of at most 64 origins (web pages allowed to open the events socket)',
            }),
          ),
          maxEventClients: Type.Optional(integer(1, 4096)),
        },
        { additionalProperties: false, description: 'an object' },
      ),
    ),
    osc: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(flag()),
          host: Type.Optional(HostSchema),
          port: Type.Optional(integer(1, 65535)),
          feedback: Type.Optional(
            Type.Array(
              Type.Object(
                { host: HostSchema, port: integer(1, 65535) },
                { additionalProperties: false, description: 'an object {host, port}' },
              ),
              { maxItems: 16, description: 'a list of at most 16 {host, port} targets' },
            ),
          ),
          replyToSender: Type.Optional(flag()),
          allowRemote: Type.Optional(flag()),
        },
        { additionalProperties: false, description: 'an object' },
      ),
    ),
    license: Type.Optional(
      Type.Object(
        {
          file: Type.Optional(Type.Union([Type.Null(), PathSchema], { description: 'null or a path of 1 to 4096 characters' })),
          trustedKeys: Type.Optional(Type.Array(TrustedKey, { maxItems: 32, description: 'a list of at most 32 base64 strings' })),
        },
        { additionalProperties: false, description: 'an object' },
      ),
    ),
    render: Type.Optional(
      Type.Object(
        {
          width: Type.Optional(integer(16, 7680)),
          height: Type.Optional(integer(16, 4320)),
          fps: Type.Optional(integer(1, 240)),
          fuse: Type.Optional(flag()),
          scale: Type.Optional(
            Type.Union([Type.Number({ minimum: 0.25, maximum: 1 }), Type.Literal('auto')], {
              description: 'a number from 0.25 to 1, or "auto"',
            }),
          ),
          minScale: Type.Optional(Type.Number({ minimum: 0.25, maximum: 1, description: 'a number from 0.25 to 1' })),
          readback: Type.Optional(
            Type.Union([Type.Literal('auto'), Type.Literal('i420'), Type.Literal('rgba')], {
              description: 'one of "auto", "i420", "rgba"',
            }),
          ),
          maxLayers: Type.Optional(integer(1, LAYER_LIMITS.maxLayersCeiling)),
        },
        { additionalProperties: false, description: 'an object' },
      ),
    ),
    media: Type.Optional(Type.Object({ roots: Type.Optional(PathList) }, { additionalProperties: false, description: 'an object' })),
    effects: Type.Optional(dirs()),
    sources: Type.Optional(
      Type.Object(
        {
          dirs: Type.Optional(PathList),
          firstRun: Type.Optional(
            Type.Union([Type.Null(), Type.String({ minLength: 1, maxLength: 256 })], {
              description: 'null or a generator or preset id or name of 1 to 256 characters',
            }),
          ),
        },
        { additionalProperties: false, description: 'an object {dirs?, firstRun?}' },
      ),
    ),
    presets: Type.Optional(dirs()),
    palettes: Type.Optional(dirs()),
    transitions: Type.Optional(dirs()),
    blends: Type.Optional(dirs()),
    mix: Type.Optional(
      Type.Object(
        {
          transition: Type.Optional(
            Type.String({
              pattern: '^[a-z0-9_]{1,64}$',
              description: 'a transition type of 1 to 64 characters from a-z 0-9 _ (GET /transitions)',
            }),
          ),
          durationMs: Type.Optional(integer(0, 10_000)),
        },
        { additionalProperties: false, description: 'an object {transition?, durationMs?}' },
      ),
    ),
    live: Type.Optional(
      Type.Object(
        {
          test: Type.Optional(Type.Array(TestInput, { maxItems: 64, description: 'a list of at most 64 test inputs' })),
          streams: Type.Optional(Type.Array(StreamInput, { maxItems: 64, description: 'a list of at most 64 streams' })),
          v4l2: Type.Optional(
            Type.Object(
              { enabled: Type.Optional(flag()), devDir: Type.Optional(PathSchema), sysfsDir: Type.Optional(PathSchema) },
              { additionalProperties: false, description: 'an object' },
            ),
          ),
        },
        { additionalProperties: false, description: 'an object' },
      ),
    ),
    outputs: Type.Optional(Type.Array(Output, { maxItems: 8, description: 'a list of at most 8 outputs' })),
    audio: Type.Optional(AudioConfigSchema),
    dmx: Type.Optional(DmxConfigSchema),
    midi: Type.Optional(MidiConfigSchema),
    show: Type.Optional(ShowConfigSchema),
    timecode: Type.Optional(TimecodeConfigSchema),
    pixelmap: Type.Optional(PixelmapConfigSchema),
    recordings: Type.Optional(
      Type.Object(
        {
          dir: Type.Optional(Type.Union([Type.Null(), PathSchema], { description: 'null or a path of 1 to 4096 characters' })),
          shareEncoder: Type.Optional(Type.Boolean({ description: 'true or false' })),
        },
        { additionalProperties: false, description: 'an object' },
      ),
    ),
  },
  { additionalProperties: false, description: 'a JSON object' },
);

/** What a config file may contain: every field optional, defaults fill the rest. */
export type ConfigFile = Static<typeof ConfigFileSchema>;

export interface TestInputConfig {
  id: string;
  name: string;
  /** Any ffmpeg lavfi source (`smptehdbars`, `testsrc2`, `color=c=red`). */
  pattern: string;
}

export interface StreamInputConfig {
  id: string;
  name: string;
  /** Anything ffmpeg reads (tcp, udp, srt, rtsp, http, file). */
  url: string;
}

/** An output definition: the fields of every kind (src/shared/output-kinds/types.ts), each kind reading its own. */
export interface OutputConfig extends Omit<OutputFields, 'kind'> {
  id: string;
  name?: string;
  kind: OutputKind;
  enabled: boolean;
}

/** Fully-resolved configuration; paths are as written (the loader reports absolute ones separately). */
export interface Config {
  dataDir: string;
  server: {
    enabled: boolean;
    host: string;
    port: number;
    apiKey: string | null;
    /** Extra Host header names answered (besides loopback, this machine's names and addresses, and the bound host). */
    allowedHosts: string[];
    /** Grant CORS preflights that ask for private-network access (a public web page driving this box). */
    allowPrivateNetwork: boolean;
    /** Origins of pages on other hosts that may open the events socket (loopback and same-host pages always may). */
    allowedOrigins: string[];
    /** Event WebSocket connections at once; the next is closed with 4429. */
    maxEventClients: number;
  };
  /** OSC over UDP (no authentication: remote hosts need allowRemote when an API key is set). */
  osc: {
    enabled: boolean;
    host: string;
    port: number;
    feedback: Array<{ host: string; port: number }>;
    replyToSender: boolean;
    allowRemote: boolean;
  };
  license: { file: string | null; trustedKeys: string[] };
  /** `scale`: the factor of width × height the picture is drawn at, or "auto" (per frame time, not below `minScale`). */
  /** `readback`: the program ring's layout for the outputs, or "auto" (measured once on the render's GPU). */
  render: {
    width: number;
    height: number;
    fps: number;
    fuse: boolean;
    scale: number | 'auto';
    minScale: number;
    readback: 'auto' | 'i420' | 'rgba';
    maxLayers: number;
  };
  media: { roots: string[] };
  effects: { dirs: string[] };
  /** `firstRun`: the generator or preset put on the program when the data dir has no saved state yet (null: none). */
  sources: { dirs: string[]; firstRun: string | null };
  presets: { dirs: string[] };
  palettes: { dirs: string[] };
  transitions: { dirs: string[] };
  /** Operator blend-mode folders (ISF with baseImage, layerImage, opacity and vjdBlend). */
  blends: { dirs: string[] };
  /** The transition of the select routes when a request names none (cut, 0: a select switches on the next frame). */
  mix: { transition: string; durationMs: number };
  live: {
    test: TestInputConfig[];
    streams: StreamInputConfig[];
    v4l2: { enabled: boolean; devDir: string; sysfsDir: string };
  };
  outputs: OutputConfig[];
  /**
   * Where record outputs write: null = `<dataDir>/recordings`; a relative path is under dataDir. `shareEncoder`: a
   * recording whose settings match a stream's copies that stream's encode instead of encoding again.
   */
  recordings: { dir: string | null; shareEncoder: boolean };
  audio: AudioConfig;
  dmx: DmxConfig;
  midi: MidiConfig;
  /** The MQTT show link; null: no show, the box runs alone. */
  show: ShowConfig | null;
  /** Timecode in (LTC, MTC, Art-Net); source "none" reads nothing. */
  timecode: TimecodeConfig;
  /** Pixel mapping out (Art-Net, sACN); disabled by default. */
  pixelmap: PixelmapConfig;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

// Frozen so a caller that mutates instead of cloning fails loudly instead of changing every later load.
export const DEFAULT_CONFIG: Config = deepFreeze({
  dataDir: './data',
  server: {
    enabled: true,
    host: '127.0.0.1',
    port: 8080,
    apiKey: null,
    allowedHosts: [],
    allowPrivateNetwork: false,
    allowedOrigins: [],
    maxEventClients: 256,
  },
  osc: { enabled: false, host: '127.0.0.1', port: 7000, feedback: [], replyToSender: false, allowRemote: false },
  license: { file: null, trustedKeys: [] },
  render: { width: 1280, height: 720, fps: 30, fuse: true, scale: 1, minScale: 0.5, readback: 'auto', maxLayers: 8 },
  media: { roots: [] },
  effects: { dirs: [] },
  sources: { dirs: [], firstRun: 'preset:deep_plasma' },
  presets: { dirs: [] },
  palettes: { dirs: [] },
  transitions: { dirs: [] },
  blends: { dirs: [] },
  mix: { transition: 'cut', durationMs: 0 },
  live: {
    test: [{ id: 'bars', name: 'Color Bars', pattern: 'smptehdbars' }],
    streams: [],
    v4l2: { enabled: true, devDir: '/dev', sysfsDir: '/sys/class/video4linux' },
  },
  outputs: [],
  recordings: { dir: null, shareEncoder: true },
  audio: DEFAULT_AUDIO,
  dmx: DEFAULT_DMX,
  midi: DEFAULT_MIDI,
  show: null,
  timecode: DEFAULT_TIMECODE,
  pixelmap: DEFAULT_PIXELMAP,
});

/** A nullable object or list (`null` or `{…}`): its one branch with keys or items, so keys inside it are found. */
export function objectBranch<T>(node: T): T {
  const branches = (node as { anyOf?: Array<{ properties?: unknown; items?: unknown }> } | undefined)?.anyOf ?? [];
  const structured = branches.filter((b) => b.properties !== undefined || b.items !== undefined);
  return structured.length === 1 ? (structured[0] as T) : node;
}

/** Finds the schema node an instance path (JSON pointer segments) points at, for error wording. */
export function schemaAt(segments: readonly string[]): TSchema | undefined {
  let node: unknown = ConfigFileSchema;
  for (const segment of segments) {
    const n = objectBranch(node) as { properties?: Record<string, unknown>; items?: unknown };
    if (n.properties && Object.hasOwn(n.properties, segment)) node = n.properties[segment];
    else if (n.items && /^\d+$/.test(segment)) node = n.items;
    else return undefined;
  }
  return node as TSchema;
}
