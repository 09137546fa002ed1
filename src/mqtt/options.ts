// The mqtt client's options for this box: credentials and TLS files read (bounded, regular files only), the last will
// that marks the box offline, and a client id of its own per run. The password goes only into these options: it is
// never logged, never shown, and never part of what GET /show or the state carry.
import { randomBytes } from 'node:crypto';
import { constants, open } from 'node:fs/promises';
import type { IClientOptions } from 'mqtt';
import type { ShowConfig } from '../config/show.js';
import { SHOW_LIMITS } from '../limits.js';

export interface ShowFiles {
  passwordFile: string | null;
  ca: string | null;
  cert: string | null;
  key: string | null;
}

/** Reads a small regular file whole; throws a message naming the key (never the content). */
async function readSmall(file: string, max: number, key: string): Promise<Buffer> {
  let fh: Awaited<ReturnType<typeof open>> | null = null;
  try {
    // O_NONBLOCK: a FIFO named by mistake must not park a libuv thread.
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = await fh.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > max) throw new Error(`larger than ${max} bytes`);
    const data = await fh.readFile();
    if (data.byteLength > max) throw new Error(`larger than ${max} bytes`);
    return data;
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`${key} ${file} could not be read (${why})`);
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** The broker URL as it may be shown: without user, password, query or fragment. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(invalid URL)';
  }
}

export async function clientOptions(cfg: ShowConfig, files: ShowFiles, will: { topic: string; payload: string }): Promise<IClientOptions> {
  const b = cfg.broker;
  const options: IClientOptions = {
    clientId: `vjd_${cfg.name}_${cfg.box}_${randomBytes(4).toString('hex')}`,
    // MQTT 5: a subscription can ask for the retain flag as published, which is how a retained command is told apart.
    protocolVersion: 5,
    keepalive: SHOW_LIMITS.keepaliveS,
    connectTimeout: SHOW_LIMITS.connectTimeoutMs,
    // A new session each time: commands missed while away are not replayed, the subscriptions are made anew.
    clean: true,
    resubscribe: false,
    // Nothing is queued while disconnected: state is sent again on connect, and a reply nobody can receive is dropped.
    queueQoSZero: false,
    reconnectPeriod: SHOW_LIMITS.reconnectMinMs,
    // A refused login (wrong password) is retried too, with the same growing wait: the broker may be fixed meanwhile.
    reconnectOnConnackError: true,
    will: { topic: will.topic, payload: Buffer.from(will.payload), qos: 1, retain: true },
    rejectUnauthorized: b.tls.rejectUnauthorized,
    // The broker sends nothing larger (MQTT 5): a flood of huge messages never reaches the parser. Larger than a
    // command may be, so an oversized command still arrives to be counted.
    properties: { maximumPacketSize: SHOW_LIMITS.packetMaxBytes },
  };
  if (b.username !== null) options.username = b.username;
  if (files.passwordFile !== null) {
    const raw = await readSmall(files.passwordFile, SHOW_LIMITS.passwordFileMaxBytes, 'show.broker.passwordFile');
    // An editor's final newline is not part of the password.
    options.password = raw.toString('utf8').replace(/\r?\n$/, '');
  }
  if (files.ca !== null) options.ca = await readSmall(files.ca, SHOW_LIMITS.tlsFileMaxBytes, 'show.broker.tls.ca');
  if (files.cert !== null) options.cert = await readSmall(files.cert, SHOW_LIMITS.tlsFileMaxBytes, 'show.broker.tls.cert');
  if (files.key !== null) options.key = await readSmall(files.key, SHOW_LIMITS.tlsFileMaxBytes, 'show.broker.tls.key');
  return options;
}
