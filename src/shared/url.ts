// Stream URL rules for outputs and for inputs added over the API, read by the config, the routes and the workers:
// which URLs reach ffmpeg at all, which muxer each scheme gets, and how credentials are hidden wherever a URL or an ffmpeg message is shown.

/** Schemes an output may send to; anything else (file:, pipe:, concat:, http:, option text) is refused. */
export const STREAM_SCHEMES = ['srt', 'udp', 'rtp', 'tcp', 'rtmp', 'rtmps', 'rtsp'] as const;
export type StreamScheme = (typeof STREAM_SCHEMES)[number];

/** ffmpeg muxer per scheme: MPEG-TS for the datagram and byte-stream protocols, FLV for RTMP, RTSP's own. */
export const MUXER: Record<StreamScheme, string> = {
  srt: 'mpegts',
  udp: 'mpegts',
  tcp: 'mpegts',
  rtp: 'rtp_mpegts',
  rtmp: 'flv',
  rtmps: 'flv',
  rtsp: 'rtsp',
};

/** Query parameters that carry secrets in the URL forms above (SRT passphrase, stream ids used as keys). */
const SECRET_PARAMS = /^(passphrase|password|passwd|pass|pwd|key|streamkey|token|secret|streamid|auth)$/i;
/** Rounds of percent-decoding a parameter name gets before it is compared (`pass%2570hrase` too). */
const DECODE_ROUNDS = 3;

/**
 * Schemes an input URL from the network may read (an audio `stream` input added over the API): the output schemes
 * and HTTP(S) for internet radio. Never file:, pipe:, concat:, data: or a lavfi graph.
 */
export const INPUT_SCHEMES = [...STREAM_SCHEMES, 'http', 'https'] as const;
/**
 * ffmpeg's protocol whitelist for such an input: the schemes and the protocols they ride on (TLS, TCP, UDP, RTP, HLS
 * keys), so a redirect or a playlist cannot lead ffmpeg to a local file or a pipe.
 */
export const INPUT_PROTOCOLS = [...INPUT_SCHEMES, 'tls', 'crypto', 'httpproxy'].join(',');

export type UrlCheck = { ok: true; scheme: StreamScheme; url: URL } | { ok: false; reason: string };

/** Decides whether `raw` may be handed to ffmpeg as an output URL. */
export function checkStreamUrl(raw: string): UrlCheck {
  return checkUrl(raw, STREAM_SCHEMES) as UrlCheck;
}

/** Decides whether `raw` may be handed to ffmpeg as an input URL from the network (the same rules, INPUT_SCHEMES). */
export function checkInputUrl(raw: string): { ok: true; scheme: string; url: URL } | { ok: false; reason: string } {
  return checkUrl(raw, INPUT_SCHEMES);
}

function checkUrl(raw: string, schemes: readonly string[]): { ok: true; scheme: string; url: URL } | { ok: false; reason: string } {
  // ffmpeg reads a leading '-' as an option, and whitespace or control characters have no place in a URL.
  if (raw.startsWith('-')) return { ok: false, reason: 'must be a URL, not ffmpeg option text' };
  if (/[\s\x00-\x1f\x7f]/.test(raw)) return { ok: false, reason: 'must not contain spaces or control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `must be a URL with a scheme of ${schemes.join(', ')}` };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (!schemes.includes(scheme)) {
    return { ok: false, reason: `scheme "${scheme}:" is not allowed; use one of ${schemes.join(', ')}` };
  }
  if (url.hostname === '') return { ok: false, reason: 'must name a host' };
  // ffmpeg's protocol parser reads what follows the scheme itself; it must see the same host WHATWG parsing saw.
  if (!/^[a-z]+:\/\//i.test(raw)) return { ok: false, reason: 'must have the form scheme://host[:port]…' };
  return { ok: true, scheme, url };
}

/** Percent-decoding that never throws: a malformed escape leaves the text as it is. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function isSecretParam(name: string): boolean {
  let n = name;
  for (let i = 0; i < DECODE_ROUNDS; i++) {
    if (SECRET_PARAMS.test(n)) return true;
    const next = decode(n.replace(/\+/g, ' '));
    if (next === n) return false;
    n = next;
  }
  return SECRET_PARAMS.test(n);
}

/**
 * A URL cut where ffmpeg cuts it: the authority (with its userinfo) ends at `/`, `?` or `#`; the options are
 * everything after the first `?`, `#` included (ffmpeg keeps an SRT `streamid=#!::…` whole, it is no fragment).
 */
interface UrlParts {
  scheme: string;
  userinfo: string | null;
  host: string;
  path: string;
  /** `[name, value]` per `&`-separated option; value null when the option has no `=`. */
  options: Array<[string, string | null]> | null;
}

function splitUrl(raw: string): UrlParts | null {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?]*)(?:\?(.*))?$/is.exec(raw);
  if (!m) return null;
  const authority = m[2]!;
  const at = authority.lastIndexOf('@');
  const options =
    m[4] === undefined
      ? null
      : m[4].split('&').map((o): [string, string | null] => {
          const eq = o.indexOf('=');
          return eq < 0 ? [o, null] : [o.slice(0, eq), o.slice(eq + 1)];
        });
  return { scheme: m[1]!, userinfo: at < 0 ? null : authority.slice(0, at), host: authority.slice(at + 1), path: m[3]!, options };
}

/** Where an RTMP URL carries its stream key: the last path segment after the application name. */
function rtmpKeyIndex(parts: UrlParts): number {
  if (!/^rtmps?:/i.test(parts.scheme)) return -1;
  const segments = parts.path.split('/');
  const named = segments.flatMap((s, i) => (s === '' ? [] : [i]));
  return named.length >= 2 ? named[named.length - 1]! : -1;
}

/** The secret parts of a URL (userinfo, secret option values, an RTMP stream key) as written and decoded, longest first. */
export function urlSecrets(raw: string): string[] {
  const parts = splitUrl(raw);
  if (!parts) return [];
  const out: string[] = [];
  const add = (v: string): void => {
    out.push(v, decode(v), encodeURIComponent(decode(v)));
  };
  if (parts.userinfo) {
    add(parts.userinfo);
    for (const piece of parts.userinfo.split(':')) add(piece);
  }
  for (const [name, value] of parts.options ?? []) {
    if (!value || !isSecretParam(name)) continue;
    add(value);
    // SRT access control (`#!::u=…,s=…`): the user and session values on their own, however a message quotes them.
    for (const m of decode(value).matchAll(/[,:]([us])=([^,]+)/g)) add(m[2]!);
  }
  const key = rtmpKeyIndex(parts);
  if (key >= 0) add(parts.path.split('/')[key]!);
  return [...new Set(out)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** The URL as shown: userinfo, secret option values and an RTMP stream key replaced by `***`, the rest as written. */
export function redactUrl(raw: string): string {
  const parts = splitUrl(raw);
  if (!parts) return redactText(raw, []);
  const segments = parts.path.split('/');
  const key = rtmpKeyIndex(parts);
  if (key >= 0) segments[key] = '***';
  const options = parts.options?.map(([name, value]) => (value === null ? name : `${name}=${isSecretParam(name) ? '***' : value}`));
  return `${parts.scheme}${parts.userinfo !== null ? '***@' : ''}${parts.host}${segments.join('/')}${options ? `?${options.join('&')}` : ''}`;
}

/** Replaces every known secret, and any `scheme://user:pass@` userinfo, in a line of text by `***`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  return out.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
}
