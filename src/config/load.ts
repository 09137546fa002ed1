// Loads the operator config: defaults < config file < env < flags, with errors that name the key and its source.
import type { AudioConfig } from './audio.js';
import { ConfigError } from './config-error.js';
import { mergeDmx } from './desks.js';
import { mergeTimecode } from './timecode.js';
import { mergePixelmap } from './pixelmap.js';
import { mergeShow } from './show.js';
import { describe, hostMessage, overrideError, preview, validateFile } from './diagnose.js';
import { parseJson } from './json-errors.js';
import { open, constants, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Compile } from 'typebox/compile';
import { hostSyntaxProblem, resolveHost } from './host.js';
import { isLoopbackHost } from '../util/network.js';
import { ApiKeyStringSchema, DEFAULT_CONFIG, HostSchema, PathSchema, PortSchema, type Config, type ConfigFile } from './schema.js';

// ConfigError lives in its own module (the diagnostics throw it too); callers keep importing it from here.
export { ConfigError };

/** Larger files are refused: a config is a few KiB, anything bigger is a wrong path or an attack. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

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
    /** The show link's files, resolved like every path in the file; null without a show. */
    show: { passwordFile: string | null; ca: string | null; cert: string | null; key: string | null } | null;
  };
}

const checkHost = Compile(HostSchema);
const checkApiKey = Compile(ApiKeyStringSchema);
const checkPath = Compile(PathSchema);

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
    show: mergeShow(file.show),
    timecode: mergeTimecode(file.timecode),
    pixelmap: mergePixelmap(file.pixelmap),
  };
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
      show: showPaths(config, inFile),
    },
  };
}

function showPaths(config: Config, inFile: (p: string) => string): LoadedConfig['paths']['show'] {
  const show = config.show;
  if (!show) return null;
  const abs = (p: string | null): string | null => (p === null ? null : inFile(p));
  const { passwordFile, tls } = show.broker;
  return { passwordFile: abs(passwordFile), ca: abs(tls.ca), cert: abs(tls.cert), key: abs(tls.key) };
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
