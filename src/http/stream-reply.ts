// Replies whose body is written after the headers: streamed bodies (files, the MJPEG preview) and large bodies,
// each honouring the socket's backpressure so a slow client never makes the server hold more than one chunk.
import { STREAM_LIMITS } from '../limits.js';
import { type Exchange, finish, type InFlight, watchAbort, writeHeaders } from './exchange.js';
import type { Reply, StreamSink } from './route.js';
import { CORS_BYTES, statusLine } from './wire.js';

/**
 * Writes status and headers, then hands the producer a sink. Known length: tryEnd, which keeps nothing it could not
 * send, so the held-back rest is re-offered on writable. Unknown length: the chunk is written in slices (see
 * STREAM_LIMITS) and the rest is held here, by reference, until the socket takes it; uWS's own buffer then holds at
 * most about one slice beyond the socket. Either way at most one chunk per client is held.
 */
export function startStream(ex: Exchange, hooks: InFlight, reply: Reply): void {
  const res = ex.res;
  const stream = reply.stream!;
  const total = stream.length;
  let pending: { chunk: Uint8Array; offset: number } | null = null;
  // Chunked: the chunk being written and how far; `clean` when the last write found uWS's buffer empty.
  let out: { chunk: Uint8Array; offset: number } | null = null;
  let clean = true;
  let queued = 0;
  let closed = false;
  const drains: Array<() => void> = [];
  const closes: Array<() => void> = [];
  const close = (): void => {
    if (closed) return;
    closed = true;
    out = null;
    finish(ex, hooks);
    for (const cb of closes.splice(0)) cb();
  };
  watchAbort(ex, hooks);
  ex.onAbort = close;
  const drained = (): void => {
    for (const cb of drains.splice(0)) cb();
  };
  /** Writes slices of `out` until it is all handed over (true) or the socket is full (false: wait for writable). */
  const pump = (): boolean => {
    while (out !== null && !closed && !ex.aborted) {
      const cur = out;
      const n = Math.min(clean ? STREAM_LIMITS.sliceBytes : STREAM_LIMITS.probeBytes, cur.chunk.byteLength - cur.offset);
      let ok = false;
      res.cork(() => {
        ok = res.write(cur.chunk.subarray(cur.offset, cur.offset + n));
      });
      cur.offset += n;
      // true: uWS's buffer was empty, so at most this slice waits in it (its cork flush); false: it was appended.
      queued = ok ? n : queued + n;
      clean = ok;
      if (cur.offset >= cur.chunk.byteLength) out = null;
      if (!ok) return out === null;
    }
    return true;
  };
  res.onWritable((offset) => {
    if (closed || ex.aborted) return true;
    if (pending) {
      const [ok, done] = res.tryEnd(pending.chunk.subarray(offset - pending.offset), total!);
      if (done) {
        pending = null;
        close();
        return true;
      }
      if (!ok) return false;
      pending = null;
    }
    if (total === undefined) {
      if (out === null) {
        // Nothing left to hand over; what uWS holds goes out with the next write.
        return true;
      }
      if (!pump()) return false;
    }
    drained();
    return true;
  });
  const sink: StreamSink = {
    get closed() {
      return closed || ex.aborted;
    },
    get backpressured() {
      return pending !== null || out !== null;
    },
    get queuedBytes() {
      return total === undefined ? queued : 0;
    },
    write(chunk) {
      if (closed || ex.aborted) return false;
      if (total === undefined) {
        // One chunk at a time: a producer that ignores backpressure loses the chunk rather than growing a queue.
        if (out !== null) return false;
        out = { chunk, offset: 0 };
        return pump() && clean;
      }
      let ok = false;
      res.cork(() => {
        const offset = res.getWriteOffset();
        const [sent, done] = res.tryEnd(chunk, total);
        ok = sent;
        if (!sent) pending = { chunk, offset };
        if (done) {
          pending = null;
          close();
        }
      });
      return ok;
    },
    end() {
      if (closed || ex.aborted) return;
      if (total === undefined) res.cork(() => res.end());
      close();
    },
    abort() {
      if (closed || ex.aborted) return;
      close();
      res.close();
    },
    onDrain(cb) {
      drains.push(cb);
    },
    onClose(cb) {
      if (closed || ex.aborted) cb();
      else closes.push(cb);
    },
  };
  res.cork(() => {
    res.writeStatus(statusLine(reply.status ?? 200));
    writeHeaders(res, CORS_BYTES);
    if (reply.contentType) res.writeHeader('Content-Type', reply.contentType);
    if (reply.headers) for (const k in reply.headers) res.writeHeader(k, reply.headers[k]!);
    // An empty known-length body ends here: tryEnd with nothing left answers Content-Length: 0.
    if (total === 0) {
      res.end();
      close();
    }
  });
  if (!closed) stream.start(sink);
}

export function sendWithBackpressure(ex: Exchange, body: Uint8Array): void {
  const res = ex.res;
  const total = body.byteLength;
  const start = res.getWriteOffset();
  const [ok, done] = res.tryEnd(body, total);
  if (ok || done) return;
  watchAbort(ex, null); // the rest goes out after this callback returns
  res.onWritable((offset) => {
    if (ex.aborted) return true;
    const [ok2] = res.tryEnd(body.subarray(offset - start), total);
    return ok2;
  });
}
