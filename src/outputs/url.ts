// Stream URL rules for outputs: which URLs reach ffmpeg at all, which muxer each scheme gets, and how
// credentials are hidden wherever a URL or an ffmpeg message is shown.

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
const SECRET_PARAMS = /^(passphrase|password|pass|pwd|key|token|secret|streamid|auth)$/i;

export type UrlCheck = { ok: true; scheme: StreamScheme; url: URL } | { ok: false; reason: string };

/** Decides whether `raw` may be handed to ffmpeg as an output URL. */
export function checkStreamUrl(raw: string): UrlCheck {
  // ffmpeg reads a leading '-' as an option, and whitespace or control characters have no place in a URL.
  if (raw.startsWith('-')) return { ok: false, reason: 'must be a URL, not ffmpeg option text' };
  if (/[\s\x00-\x1f\x7f]/.test(raw)) return { ok: false, reason: 'must not contain spaces or control characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `must be a URL with a scheme of ${STREAM_SCHEMES.join(', ')}` };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (!(STREAM_SCHEMES as readonly string[]).includes(scheme)) {
    return { ok: false, reason: `scheme "${scheme}:" is not allowed; use one of ${STREAM_SCHEMES.join(', ')}` };
  }
  if (url.hostname === '') return { ok: false, reason: 'must name a host' };
  // ffmpeg's protocol parser reads what follows the scheme itself; it must see the same host WHATWG parsing saw.
  if (!/^[a-z]+:\/\//i.test(raw)) return { ok: false, reason: 'must have the form scheme://host[:port]…' };
  return { ok: true, scheme: scheme as StreamScheme, url };
}

/** The secret parts of a URL (userinfo, secret query values, an RTMP stream key), longest first. */
export function urlSecrets(raw: string): string[] {
  const check = checkStreamUrl(raw);
  if (!check.ok) return [];
  const { url, scheme } = check;
  const out: string[] = [];
  if (url.username) out.push(decodeURIComponent(url.username), url.username);
  if (url.password) out.push(decodeURIComponent(url.password), url.password);
  for (const [k, v] of url.searchParams) if (SECRET_PARAMS.test(k) && v) out.push(v, encodeURIComponent(v));
  if (scheme === 'rtmp' || scheme === 'rtmps') {
    const key = url.pathname.split('/').filter(Boolean)[1];
    if (key) out.push(key);
  }
  return [...new Set(out)].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
}

/** The URL as shown: credentials replaced by `***`. */
export function redactUrl(raw: string): string {
  return redactText(raw, urlSecrets(raw));
}

/** Replaces every known secret, and any `scheme://user:pass@` userinfo, in a line of text by `***`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  return out.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
}
