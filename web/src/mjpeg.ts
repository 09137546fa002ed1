// Reads the program preview (multipart/x-mixed-replace JPEG parts, each with Content-Length) through fetch(), so the
// API key travels in a header rather than in an <img> URL, and hands each frame over as a Blob.
import { API, authHeaders } from './api';

export interface PreviewReader {
  stop(): void;
}

const HEADER_END = [13, 10, 13, 10];

function indexOf(buf: Uint8Array, pat: number[], from: number): number {
  outer: for (let i = from; i <= buf.length - pat.length; i++) {
    for (let j = 0; j < pat.length; j++) if (buf[i + j] !== pat[j]) continue outer;
    return i;
  }
  return -1;
}

export function readPreview(
  size: number,
  fps: number,
  onFrame: (jpeg: Blob) => void,
  onError: (status: number, message: string) => void,
): PreviewReader {
  const ctrl = new AbortController();
  void (async () => {
    let r: Response;
    try {
      r = await fetch(`${API}/output/preview.mjpeg?size=${size}&fps=${fps}`, {
        headers: authHeaders(),
        signal: ctrl.signal,
        cache: 'no-store',
      });
    } catch (err) {
      if (!ctrl.signal.aborted) onError(0, String(err));
      return;
    }
    if (!r.ok || !r.body) {
      const text = await r.text().catch(() => '');
      let message = `HTTP ${r.status}`;
      try {
        message = JSON.parse(text).message ?? message;
      } catch {
        // not JSON
      }
      onError(r.status, message);
      return;
    }
    const reader = r.body.getReader();
    let buf = new Uint8Array(0);
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const joined = new Uint8Array(buf.length + value.length);
        joined.set(buf);
        joined.set(value, buf.length);
        buf = joined;
        // Parse as many whole parts as the buffer holds: headers, blank line, Content-Length bytes.
        for (;;) {
          const end = indexOf(buf, HEADER_END, 0);
          if (end < 0) break;
          const head = decoder.decode(buf.subarray(0, end));
          const m = /content-length:\s*(\d+)/i.exec(head);
          if (!m) {
            buf = buf.subarray(end + 4);
            continue;
          }
          const len = Number(m[1]);
          const start = end + 4;
          if (buf.length < start + len) break;
          onFrame(new Blob([buf.slice(start, start + len)], { type: 'image/jpeg' }));
          buf = buf.subarray(start + len);
        }
      }
      if (!ctrl.signal.aborted) onError(0, 'preview stream ended');
    } catch (err) {
      if (!ctrl.signal.aborted) onError(0, String(err));
    }
  })();
  return { stop: () => ctrl.abort() };
}
