// Loads the operator config: defaults < config file < env < flags, with errors that name the key and its source.
import { audioProblem, type AudioConfig } from './audio.js';
import { dmxProblem, mergeDmx } from './desks.js';
import { open, constants, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { hostSyntaxProblem, resolveHost } from './host.js';
import { outputProblem } from '../shared/output-kinds/index.js';
import { isLoopbackHost } from '../util/network.js';
import {
  ApiKeyStringSchema,
  ConfigFileSchema,
  DEFAULT_CONFIG,
  HostSchema,
  PathSchema,
  PortSchema,
  schemaAt,
  type Config,
  type ConfigFile,
} from './schema.js';

/** Larger files are refused: a config is a few KiB, anything bigger is a wrong path or an attack. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Dotted key (`server.port`, `live.test[0].id`); empty when the whole file is at fault. */
  readonly key: string;
  /** Absolute config file path when the bad value came from the file, else null. */
  readonly file: string | null;
  /** Where the value came from: the file path, an env var name (`VJD_PORT`) or a flag (`--port`). */
  readonly source: string;

  constructor(opts: { source: string; key: string; file: string | null; detail: string }) {
    super(`config error in ${opts.source}: ${opts.detail}`);
    this.key = opts.key;
    this.file = opts.file;
    this.source = opts.source;
  }
}

/** CLI flags of `vjd serve`. */
export interface Overrides {
  config?: string;
  host?: string;
  port?: string | number;
  apiKey?: string;
  dataDir?: string;
}

export interface LoadOptions {
  /**
   * Resolve a server.host name (default true). Only `vjd serve` binds it; the other commands skip the lookup so
   * they still work while a name does not resolve.
   */
  resolveHost?: boolean;
  /**
   * A key set while OSC listens beyond loopback without osc.allowRemote: `refuse` (default) is a config error; a
   * running server's reload passes `loopback` instead, so the key still applies and OSC is moved to loopback
   * (the reason comes back in `oscLoopbackOnly`).
   */
  oscRemote?: 'refuse' | 'loopback';
}

export type OriginKey = 'server.host' | 'server.port' | 'server.apiKey' | 'dataDir';
export type Origin = 'flag' | 'env' | 'file' | 'default';

export interface LoadedConfig {
  config: Config;
  /** Absolute path of the config file read, or null when running on defaults. */
  file: string | null;
  origin: Record<OriginKey, Origin>;
  /** The IP literal the listener binds: server.host itself, what its name resolved to, or the name when not resolved. */
  bindAddress: string;
  /** Set when OSC must be moved to loopback (see LoadOptions.oscRemote): why. */
  oscLoopbackOnly?: string;
  /** Absolute paths derived from the config. */
  paths: {
    dataDir: string;
    licenseFile: string;
    mediaRoots: string[];
    effectsDirs: string[];
    sourcesDirs: string[];
    presetsDirs: string[];
    palettesDirs: string[];
    transitionsDirs: string[];
    blendsDirs: string[];
    stateFile: string;
    runDir: string;
    recordingsDir: string;
  };
}

const checkFile = Compile(ConfigFileSchema);
const checkHost = Compile(HostSchema);
const checkApiKey = Compile(ApiKeyStringSchema);
const checkPath = Compile(PathSchema);

function describe(schema: TSchema | undefined): string | undefined {
  return (schema as { description?: unknown } | undefined)?.description as string | undefined;
}

const isSecretKey = (key: string): boolean => key.endsWith('apiKey');

/** Shows the offending value without ever echoing a key. */
function preview(value: unknown, secret: boolean): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (value !== null && typeof value === 'object') return 'an object';
  if (secret) return typeof value === 'string' ? `a string of ${value.length} characters` : `a ${typeof value}`;
  const text = typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function dotted(segments: readonly string[]): string {
  return segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
}

function quoteKey(key: string): string {
  return JSON.stringify(key.length > 100 ? `${key.slice(0, 97)}...` : key);
}

/** Levenshtein distance, to suggest the key an operator most likely meant. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

/** Walks value and schema together so every unknown key is reported by its full name, first one wins. */
function findUnknownKey(value: unknown, schema: SchemaNode, path: string[]): { path: string[]; hint?: string } | null {
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnknownKey(value[i], schema.items, [...path, String(i)]);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    const known = schema.properties;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(known, key)) continue;
      const hint = Object.keys(known).find((k) => distance(k.toLowerCase(), key.toLowerCase()) <= 2);
      return hint === undefined ? { path: [...path, key] } : { path: [...path, key], hint: dotted([...path, hint]) };
    }
    for (const [key, child] of Object.entries(value)) {
      const found = findUnknownKey(child, known[key] as SchemaNode, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let node = root;
  for (const s of segments) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined;
  return node;
}

function validateFile(value: unknown, file: string): ConfigFile {
  const fail = (key: string, detail: string): never => {
    throw new ConfigError({ source: file, key, file, detail });
  };
  const unknown = findUnknownKey(value, ConfigFileSchema as SchemaNode, []);
  if (unknown) {
    const key = dotted(unknown.path);
    fail(key, `unknown key ${quoteKey(key)}${unknown.hint ? ` (did you mean ${quoteKey(unknown.hint)}?)` : ''}`);
  }
  if (!checkFile.Check(value)) {
    const error = checkFile.Errors(value)[0];
    const segments = (error?.instancePath ?? '')
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const key = dotted(segments);
    if (error?.keyword === 'required') {
      const missing = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '?';
      const full = dotted([...segments, missing]);
      fail(full, `${full} is required`);
    }
    const got = preview(valueAt(value, segments), isSecretKey(key));
    if (key === '') fail('', `the file must contain a JSON object (got ${got})`);
    const expected = describe(schemaAt(segments));
    fail(key, expected ? `${key} must be ${expected} (got ${got})` : `${key} ${error?.message ?? 'is invalid'}`);
  }
  const config = value as ConfigFile;
  // Test inputs and streams share one id space: thumbnail and select routes address live inputs by id.
  const seen = new Map<string, string>();
  const inputs = [
    ...(config.live?.test ?? []).map((t, i) => ({ id: t.id, at: `live.test[${i}]` })),
    ...(config.live?.streams ?? []).map((s, i) => ({ id: s.id, at: `live.streams[${i}]` })),
  ];
  for (const { id, at } of inputs) {
    const lower = id.toLowerCase();
    const previous = seen.get(lower);
    if (previous !== undefined) fail(`${at}.id`, `${at}.id ${JSON.stringify(id)} is already used by ${previous}`);
    seen.set(lower, at);
  }
  const audio = audioProblem(config.audio);
  if (audio) fail(audio.key, audio.message);
  const dmx = dmxProblem(config.dmx);
  if (dmx) fail(dmx.key, dmx.message);
  const outputIds = new Map<string, string>();
  for (const [i, o] of (config.outputs ?? []).entries()) {
    const at = `outputs[${i}]`;
    const problem = outputProblem(o);
    if (problem) fail(`${at}.${problem.field}`, `${at}.${problem.field} ${problem.reason}`);
    const previous = outputIds.get(o.id.toLowerCase());
    if (previous !== undefined) fail(`${at}.id`, `${at}.id ${JSON.stringify(o.id)} is already used by ${previous}`);
    outputIds.set(o.id.toLowerCase(), at);
  }
  const host = config.server?.host;
  const hostProblem = host === undefined ? null : hostSyntaxProblem(host);
  if (host !== undefined && hostProblem !== null) fail('server.host', hostMessage(host, hostProblem));
  return config;
}

/** Finds where JSON.parse gave up (V8 does not always say) without echoing file content, which may hold a key. */
function locateJsonError(text: string): { offset: number; reason: string } | null {
  let i = 0;
  const stop = (reason: string): never => {
    throw { offset: i, reason };
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] as string)) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else stop(`expected ${word}`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) stop('unterminated string');
      else if (c === '"') return void i++;
      else if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else stop('invalid escape in string');
      } else if (c < ' ') stop('control character in string (write it escaped)');
      else i++;
    }
  };
  const value = (depth: number): void => {
    if (depth > 256) stop('nested too deeply');
    ws();
    const c = text[i];
    if (c === undefined) return stop('unexpected end of file');
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === '{') {
          ws();
          if (text[i] !== '"') stop('expected a double-quoted property name');
          string();
          ws();
          if (text[i] !== ':') stop("expected ':' after property name");
          i++;
        }
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === close) return void i++;
        else stop(text[i] === undefined ? 'unexpected end of file' : `expected ',' or '${close}'`);
      }
    }
    if (c === '"') return string();
    if (c === 't' || c === 'f' || c === 'n') return literal(c === 't' ? 'true' : c === 'f' ? 'false' : 'null');
    const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    number.lastIndex = i;
    if (!number.test(text)) stop(`unexpected character ${JSON.stringify(c)}`);
    i = number.lastIndex;
  };
  try {
    value(0);
    ws();
    if (i < text.length) stop('unexpected content after the JSON value');
    return null;
  } catch (e) {
    return e !== null && typeof e === 'object' && 'reason' in e ? (e as { offset: number; reason: string }) : null;
  }
}

function parseJson(raw: string, file: string): unknown {
  // Editors on some systems prepend a byte-order mark, which JSON.parse refuses.
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const where = locateJsonError(text);
    let detail = 'invalid JSON';
    if (where) {
      const before = text.slice(0, where.offset);
      const line = before.split('\n').length;
      const column = where.offset - before.lastIndexOf('\n');
      detail = `invalid JSON at line ${line} column ${column}: ${where.reason}`;
    }
    throw new ConfigError({ source: file, key: '', file, detail });
  }
}

async function readConfigFile(file: string, namedBy: string): Promise<string> {
  const fail = (detail: string): never => {
    throw new ConfigError({ source: file, key: '', file, detail });
  };
  let fh: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO would otherwise park a libuv thread until a writer shows up.
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail(`file not found (named by ${namedBy})`);
    if (code === 'EACCES') return fail('permission denied');
    return fail(`cannot open file (${code ?? String(err)})`);
  }
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) fail(stat.isDirectory() ? 'is a directory, not a file' : 'not a regular file');
    if (stat.size > MAX_CONFIG_BYTES) fail(`file is larger than 1 MiB (${stat.size} bytes)`);
    const data = await fh.readFile();
    // The file may have grown since the stat.
    if (data.length > MAX_CONFIG_BYTES) fail(`file is larger than 1 MiB (${data.length} bytes)`);
    return data.toString('utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    return fail(`cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

function merge(file: ConfigFile): Config {
  const d = structuredClone(DEFAULT_CONFIG) as Config;
  return {
    dataDir: file.dataDir ?? d.dataDir,
    server: { ...d.server, ...file.server },
    osc: { ...d.osc, ...file.osc },
    license: { ...d.license, ...file.license },
    render: { ...d.render, ...file.render },
    media: { ...d.media, ...file.media },
    effects: { ...d.effects, ...file.effects },
    sources: { ...d.sources, ...file.sources },
    presets: { ...d.presets, ...file.presets },
    palettes: { ...d.palettes, ...file.palettes },
    transitions: { ...d.transitions, ...file.transitions },
    blends: { ...d.blends, ...file.blends },
    mix: { ...d.mix, ...file.mix },
    live: {
      test: file.live?.test ?? d.live.test,
      streams: file.live?.streams ?? d.live.streams,
      v4l2: { ...d.live.v4l2, ...file.live?.v4l2 },
    },
    outputs: file.outputs ?? d.outputs,
    recordings: { ...d.recordings, ...file.recordings },
    // Inputs of one's own without `input` select none: the embedded default names an input they may lack.
    // audioProblem has checked each input's fields for its kind.
    audio: { ...d.audio, ...(file.audio?.inputs ? { input: null } : {}), ...(file.audio as Partial<AudioConfig> | undefined) },
    dmx: mergeDmx(d.dmx, file.dmx),
    midi: { ...d.midi, ...file.midi },
  };
}

function overrideError(source: string, key: string, expected: string | undefined, got: unknown): ConfigError {
  return new ConfigError({
    source,
    key,
    file: null,
    detail: `${key} must be ${expected ?? 'valid'} (got ${preview(got, isSecretKey(key))})`,
  });
}

function hostMessage(host: string, problem: string): string {
  return `server.host must be an IP address or a host name (got ${preview(host, false)}: ${problem})`;
}

function parsePort(raw: string | number, source: string): number {
  const n = typeof raw === 'number' ? raw : /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1024 || n > 65535) throw overrideError(source, 'server.port', describe(PortSchema), raw);
  return n;
}

/** The winning flag or env value for one key; an empty env var counts as unset (shells export empty values). */
function pick(flag: string | number | undefined, flagName: string, env: string | undefined, envName: string) {
  if (flag !== undefined) return { value: flag, source: flagName, origin: 'flag' as const };
  if (env !== undefined && env !== '') return { value: env, source: envName, origin: 'env' as const };
  return null;
}

export async function loadConfig(flags: Overrides, env: NodeJS.ProcessEnv = process.env, opts: LoadOptions = {}): Promise<LoadedConfig> {
  const cwd = process.cwd();
  const named = pick(flags.config, '--config', env.VJD_CONFIG, 'VJD_CONFIG');
  let file: string | null = null;
  let fromFile: ConfigFile = {};
  if (named) {
    const raw = String(named.value);
    if (!checkPath.Check(raw)) throw overrideError(named.source, 'config', describe(PathSchema), raw);
    file = resolve(cwd, raw);
    fromFile = validateFile(parseJson(await readConfigFile(file, named.source), file), file);
  }
  const config = merge(fromFile);
  const origin: Record<OriginKey, Origin> = {
    'server.host': fromFile.server?.host !== undefined ? 'file' : 'default',
    'server.port': fromFile.server?.port !== undefined ? 'file' : 'default',
    'server.apiKey': fromFile.server?.apiKey !== undefined ? 'file' : 'default',
    dataDir: fromFile.dataDir !== undefined ? 'file' : 'default',
  };

  // Where the winning host came from, so a failed lookup names the flag, env var or file like any other error.
  let hostSource = origin['server.host'] === 'file' ? { source: file as string, file } : { source: 'the defaults', file: null };
  const host = pick(flags.host, '--host', env.VJD_HOST, 'VJD_HOST');
  if (host) {
    if (!checkHost.Check(host.value)) throw overrideError(host.source, 'server.host', describe(HostSchema), host.value);
    const problem = hostSyntaxProblem(host.value);
    if (problem !== null)
      throw new ConfigError({ source: host.source, key: 'server.host', file: null, detail: hostMessage(host.value, problem) });
    config.server.host = host.value;
    origin['server.host'] = host.origin;
    hostSource = { source: host.source, file: null };
  }
  const port = pick(flags.port, '--port', env.VJD_PORT, 'VJD_PORT');
  if (port) {
    config.server.port = parsePort(port.value, port.source);
    origin['server.port'] = port.origin;
  }
  const apiKey = pick(flags.apiKey, '--api-key', env.VJD_API_KEY, 'VJD_API_KEY');
  if (apiKey) {
    if (!checkApiKey.Check(apiKey.value)) {
      throw overrideError(apiKey.source, 'server.apiKey', describe(ApiKeyStringSchema), apiKey.value);
    }
    config.server.apiKey = apiKey.value;
    origin['server.apiKey'] = apiKey.origin;
  }
  const dataDir = pick(flags.dataDir, '--data-dir', env.VJD_DATA_DIR, 'VJD_DATA_DIR');
  if (dataDir) {
    if (!checkPath.Check(dataDir.value)) throw overrideError(dataDir.source, 'dataDir', describe(PathSchema), dataDir.value);
    config.dataDir = dataDir.value;
    origin.dataDir = dataDir.origin;
  }

  let bindAddress = config.server.host;
  if (opts.resolveHost !== false) {
    const resolved = await resolveHost(config.server.host);
    if ('problem' in resolved) {
      const detail = `server.host ${preview(config.server.host, false)} ${resolved.problem}`;
      throw new ConfigError({ ...hostSource, key: 'server.host', detail });
    }
    bindAddress = resolved.address;
  }

  // OSC has no authentication: with a key set, listening beyond this machine must be asked for explicitly.
  const osc = config.osc;
  let oscLoopbackOnly: string | undefined;
  if (osc.enabled && config.server.apiKey !== null && !isLoopbackHost(osc.host) && !osc.allowRemote) {
    const detail = `osc.host ${preview(osc.host, false)} is not loopback while an API key is set; OSC has no authentication, so set osc.allowRemote: true to accept control from the network anyway`;
    if (opts.oscRemote !== 'loopback') throw new ConfigError({ source: file ?? 'the defaults', file, key: 'osc.allowRemote', detail });
    oscLoopbackOnly = `${detail} (restart to apply it)`;
  }

  // Paths written in the file mean "next to the file"; defaults, flags and env mean "from where vjd was started".
  const fileDir = file ? dirname(file) : cwd;
  const inFile = (p: string): string => resolve(fileDir, p);
  const dataDirAbs = resolve(origin.dataDir === 'file' ? fileDir : cwd, config.dataDir);
  return {
    config,
    file,
    origin,
    bindAddress,
    ...(oscLoopbackOnly !== undefined ? { oscLoopbackOnly } : {}),
    paths: {
      dataDir: dataDirAbs,
      licenseFile: config.license.file === null ? join(dataDirAbs, 'license.json') : inFile(config.license.file),
      mediaRoots: config.media.roots.length === 0 ? [join(dataDirAbs, 'media')] : config.media.roots.map(inFile),
      effectsDirs: config.effects.dirs.map(inFile),
      sourcesDirs: config.sources.dirs.map(inFile),
      presetsDirs: config.presets.dirs.map(inFile),
      palettesDirs: config.palettes.dirs.map(inFile),
      transitionsDirs: config.transitions.dirs.map(inFile),
      blendsDirs: config.blends.dirs.map(inFile),
      stateFile: join(dataDirAbs, 'state.json'),
      runDir: join(dataDirAbs, 'run'),
      // Relative to dataDir (not the config file): recordings belong with the rest of vjd's data.
      recordingsDir: config.recordings.dir === null ? join(dataDirAbs, 'recordings') : resolve(dataDirAbs, config.recordings.dir),
    },
  };
}

/** A summary safe to log: where each overridable value came from, and whether a key is set, never the key. */
export function describeOrigin(loaded: LoadedConfig): {
  file: string | null;
  dataDir: string;
  host: string;
  port: number;
  auth: 'api key set' | 'no api key';
  origin: Record<OriginKey, Origin>;
} {
  return {
    file: loaded.file,
    dataDir: loaded.paths.dataDir,
    host: loaded.config.server.host,
    port: loaded.config.server.port,
    auth: loaded.config.server.apiKey === null ? 'no api key' : 'api key set',
    origin: { ...loaded.origin },
  };
}
