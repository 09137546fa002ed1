// A media video under transport control: one ClipReader at a time writes into the frame ring, paced by the clip's
// own clock (play, pause, speed), so pause holds the reader and speed needs no respawn. A seek starts a reader at the
// target while the ring keeps the last frame, and answers once the target's frame is in the ring. A loop starts the
// next reader at the in point shortly before the out point, so the wrap shows no gap. Ping-pong keeps the frames of
// one pass from the in point (ClipBank) and, at the out point, plays them back and forth from memory.
import type { ClipCommand, ClipStart, ClipStatus, IngestState } from '../../src/shared/protocol/ingest.js';
import type { ClipSourceOptions } from './clip-options.js';
import { FrameRingWriter } from '../../src/shared/frame-ring.js';
import { PcmRingWriter } from '../../src/shared/pcm-ring.js';
import { ClipBank } from './clip-bank.js';
import { ClipClock } from './clip-clock.js';
import { ClipReader } from './clip-reader.js';
import { ClipRetry, stallOf } from './clip-retry.js';

export type { ClipSourceOptions };

/** Status reports while playing come this often (at least four a second). */
const REPORT_MS = 200;
/** The next loop's reader starts this long (wall time) before the out point. */
const PRESPAWN_MS = 1500;
/** A forward seek at most this far (s) keeps the reader and drops the frames up to the target instead of starting a new one. */
const DROP_AHEAD_S = 2;

interface Seek {
  reader: ClipReader;
  since: number;
  /** Play state once the target frame is shown; undefined keeps the current one. */
  play: boolean | undefined;
  /** Set when the current reader is kept: the target on its time line, and in the file (should it end first). */
  dropTo?: { raw: number; fileS: number };
  waiters: Array<{ resolve(s: ClipStatus): void; reject(e: Error): void }>;
}

export class ClipSource {
  private readonly writer: FrameRingWriter;
  private readonly pcm: PcmRingWriter | null;
  private readonly clock = new ClipClock();
  private settings: ClipStart['settings'];
  private readonly durationS: number | null;
  private current: ClipReader | null = null;
  private next: ClipReader | null = null;
  private seeking: Seek | null = null;
  private ended = false;
  private readonly bank: ClipBank;
  /** Frames come from the bank, not from a reader. */
  private memory = false;
  /** Position of the frame in the ring: in the file, and on its reader's time line (the clock's). */
  private shownS: number;
  private shownRaw: number;
  private frameNo = 0;
  private frameW = 0;
  private frameH = 0;
  private waitingSince = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly house: NodeJS.Timeout;
  private readonly retry = new ClipRetry();
  private closing = false;
  private closed: Promise<void> | null = null;
  private audio: boolean;
  state: IngestState = 'connecting';
  message: string | undefined;

  constructor(private readonly o: ClipSourceOptions) {
    this.writer = new FrameRingWriter(o.ring);
    this.bank = new ClipBank(o.fps);
    this.pcm = o.pcm ? new PcmRingWriter(o.pcm) : null;
    this.audio = this.pcm !== null;
    this.settings = { ...o.start.settings };
    this.durationS = o.start.durationS;
    this.clock.speed = this.settings.speed;
    this.clock.playing = o.start.paused !== true;
    this.shownS = o.start.positionS ?? this.inS();
    this.shownRaw = this.shownS;
    if (o.adopted) {
      this.writer.setDown();
      this.writer.endRun();
    }
    this.house = setInterval(() => this.housekeeping(), REPORT_MS);
  }

  get pid(): number | undefined {
    return (this.seeking?.reader ?? this.current)?.pid;
  }

  start(): void {
    if (!this.closing && !this.current && !this.seeking) this.beginSeek(this.shownS, undefined);
  }

  /** A fresh reader at the position shown (the caller knows this one delivers nothing). */
  restart(): void {
    if (this.closing) return;
    this.retry.reset();
    this.beginSeek(this.shownS, undefined);
  }

  close(silent = false): Promise<void> {
    if (this.closed) return this.closed;
    this.closing = true;
    this.writer.setDown();
    clearInterval(this.house);
    if (this.timer) clearTimeout(this.timer);
    this.retry.cancel();
    this.failWaiters('the clip was closed');
    this.bank.free();
    const readers = [...new Set([this.current, this.next, this.seeking?.reader])].filter(
      (r): r is ClipReader => r !== null && r !== undefined,
    );
    this.current = this.next = null;
    this.seeking = null;
    this.closed = Promise.all(readers.map((r) => r.stop())).then(() => {
      if (!silent) this.setState('closed');
    });
    return this.closed;
  }

  killSync(): void {
    this.closing = true;
    for (const r of [this.current, this.next, this.seeking?.reader]) r?.kill();
  }

  status(): ClipStatus {
    const state = this.ended ? 'ended' : (this.seeking?.play ?? this.clock.playing) ? 'playing' : 'paused';
    return { state, positionS: this.shownS, frameNo: this.frameNo, settings: { ...this.settings }, durationS: this.durationS };
  }

  /** Applies a transport command; resolves with the status once its effect is in the ring. */
  command(cmd: ClipCommand): Promise<ClipStatus> {
    if (this.closing) return Promise.reject(new Error('the clip is closed'));
    const now = Date.now();
    switch (cmd.op) {
      case 'play':
        if (this.ended) return this.seekAndWait(this.inS(), true);
        if (this.seeking) this.seeking.play = true;
        else if (!this.clock.playing) {
          this.clock.setPlaying(true, this.shownRaw, now);
          // Nothing else wakes a paused reader: its pipe is full and unread.
          this.tick();
        }
        break;
      case 'pause':
        if (this.seeking) this.seeking.play = false;
        if (this.clock.playing) this.clock.setPlaying(false, this.shownRaw, now);
        break;
      case 'seek':
        return this.seekAndWait(cmd.positionS, cmd.play ?? (this.ended ? false : undefined));
      case 'settings':
        return this.applySettings(cmd.settings, now);
    }
    this.changed();
    return Promise.resolve(this.status());
  }

  private applySettings(s: ClipStart['settings'], now: number): Promise<ClipStatus> {
    const bounds = s.inS !== this.settings.inS || s.outS !== this.settings.outS;
    const loop = s.loop !== this.settings.loop;
    this.settings = { ...s };
    if (this.clock.speed !== s.speed) this.clock.setSpeed(s.speed, now);
    if (bounds || loop) {
      this.dropNext();
      // Leaving ping-pong, or moving its span, lets go of the kept frames.
      this.bank.free();
      if (this.memory && !this.ended) {
        const here = this.shownS >= this.inS() && this.shownS < this.outS() ? this.shownS : this.inS();
        return this.seekAndWait(here, undefined);
      }
    }
    // A reader that loops by itself cannot stop at an out point.
    if (this.current?.loop && !this.plainLoop() && !this.ended) {
      const here = this.shownS >= this.inS() && this.shownS < this.outS() ? this.shownS : this.inS();
      return this.seekAndWait(here, undefined);
    }
    if (bounds) {
      const inside = this.shownS >= this.inS() && this.shownS < this.outS();
      // A reader decodes to the out point it was started with: a moved out point needs one that reads to the new one.
      if (!inside) return this.seekAndWait(this.inS(), undefined);
      if (this.current && this.current.endS !== this.endOf()) return this.seekAndWait(this.current.inFile(this.clock.at(now)), undefined);
    }
    if (loop && this.ended && (s.loop === 'loop' || s.loop === 'ping-pong')) return this.seekAndWait(this.inS(), true);
    this.schedule(now);
    this.changed();
    return Promise.resolve(this.status());
  }

  private seekAndWait(positionS: number, play: boolean | undefined): Promise<ClipStatus> {
    return new Promise<ClipStatus>((resolve, reject) => {
      this.beginSeek(positionS, play);
      this.seeking!.waiters.push({ resolve, reject });
    });
  }

  private inS(): number {
    return this.settings.inS ?? 0;
  }

  private outS(): number {
    return this.settings.outS ?? this.durationS ?? Number.POSITIVE_INFINITY;
  }

  /** Loop mode without in/out points: one reader loops the file by itself, as media always played. */
  private plainLoop(): boolean {
    return this.settings.loop === 'loop' && this.settings.inS === null && this.settings.outS === null;
  }

  /** Where a reader stops: the out point, or null to read to the file's end. */
  private endOf(): number | null {
    return this.settings.outS;
  }

  private spawn(startS: number): ClipReader {
    return new ClipReader({
      path: this.o.path,
      startS,
      endS: this.endOf(),
      // ffmpeg's own loop goes back to its seek point's keyframe, not to the start: only a reader from 0 loops itself.
      loop: this.plainLoop() && startS <= 0,
      wrapS: this.durationS,
      maxWidth: this.writer.geometry.maxWidth,
      maxHeight: this.writer.geometry.maxHeight,
      fps: this.o.fps,
      ffmpeg: this.o.ffmpeg,
      wrapper: this.o.wrapper,
      pcm: this.audio ? this.pcm : null,
      onReadable: (r) => {
        if (r === this.current || r === this.seeking?.reader) this.tick();
      },
      onExit: (r, failed) => this.onReaderExit(r, failed),
    });
  }

  private beginSeek(positionS: number, play: boolean | undefined): void {
    const waiters = this.seeking?.waiters ?? [];
    const keep = play ?? this.seeking?.play;
    if (this.seeking && this.seeking.reader !== this.current) void this.seeking.reader.stop();
    const raw = this.aheadOnCurrent(positionS);
    this.seeking =
      raw === null
        ? { reader: this.spawn(positionS), since: Date.now(), play: keep, waiters }
        : { reader: this.current!, since: Date.now(), play: keep, waiters, dropTo: { raw, fileS: positionS } };
    if (this.state !== 'live') this.setState('connecting');
    // After the caller has added its waiter: the frames may be in the pipe already.
    if (raw !== null) queueMicrotask(() => this.tick());
  }

  /** The current reader's own position for a target a short way ahead of the frame shown; null when a new reader is due. */
  private aheadOnCurrent(positionS: number): number | null {
    const cur = this.current;
    if (!cur || this.memory || this.ended || cur.eof || !cur.sized) return null;
    // A reader started for other settings (another out point, or looping by itself) is not kept.
    if (cur.loop ? !this.plainLoop() : cur.endS !== this.endOf()) return null;
    const ahead = positionS - this.shownS;
    if (!(ahead > 0 && ahead <= DROP_AHEAD_S)) return null;
    const raw = this.shownRaw + ahead;
    if ((cur.endS !== null && raw >= cur.endS) || cur.nextPositionS() > raw + 1e-6) return null;
    return raw;
  }

  /** A kept reader's frames up to the seek target are read and dropped; the target's frame, or null while it is not there yet. */
  private dropUpTo(seek: Seek): { frame: Buffer; at: number } | null {
    const r = seek.reader;
    const to = seek.dropTo!;
    for (;;) {
      const at = r.nextPositionS();
      const frame = r.take();
      if (!frame) {
        // It ended before the target: a reader started at the target after all.
        if (r.eof) this.seeking = { ...seek, reader: this.spawn(to.fileS), since: Date.now(), dropTo: undefined };
        return null;
      }
      this.bank.add(r, frame, r.inFile(at), r.run.width, r.run.height);
      if (at >= to.raw - 1e-6) return { frame, at };
    }
  }

  private dropNext(): void {
    if (this.next) void this.next.stop();
    this.next = null;
  }

  /** Writes what is due now: a seek's first frame, or the frames the clock has reached. */
  private tick(): void {
    if (this.closing) return;
    const now = Date.now();
    const seek = this.seeking;
    if (seek) {
      const kept = seek.dropTo !== undefined;
      const got = kept ? this.dropUpTo(seek) : { frame: seek.reader.take(), at: seek.reader.startS };
      if (!got?.frame) return;
      if (!kept) {
        if (this.current) void this.current.stop();
        this.dropNext();
      }
      this.current = seek.reader;
      this.seeking = null;
      this.ended = false;
      this.memory = false;
      if (!kept) this.keepPass(seek.reader);
      this.clock.setPlaying(seek.play ?? this.clock.playing, got.at, now);
      this.write(got.frame, got.at, seek.reader);
      if (!kept) this.bank.add(seek.reader, got.frame, this.shownS, this.frameW, this.frameH);
      for (const w of seek.waiters) w.resolve(this.status());
      this.changed();
    }
    if (this.memory) return this.tickMemory(now);
    const cur = this.current;
    if (!cur || !this.clock.playing || this.ended) return this.schedule(now);
    const target = this.clock.at(now);
    let frame: Buffer | null = null;
    let at = 0;
    // The newest frame due wins: a speed above 1 (or a late tick) skips the ones in between.
    while (cur.nextPositionS() <= target + 1e-6) {
      const p = cur.nextPositionS();
      const f = cur.take();
      if (!f) break;
      this.bank.add(cur, f, cur.inFile(p), cur.run.width, cur.run.height);
      frame = f;
      at = p;
    }
    if (frame) this.write(frame, at, cur);
    const owed = cur.nextPositionS() <= target && !cur.eof;
    this.waitingSince = owed ? this.waitingSince || now : 0;
    if (cur.eof && target >= cur.nextPositionS()) return this.atEnd(now);
    const end = cur.loop ? null : (cur.endS ?? this.durationS);
    if (this.wraps() && !this.next && end !== null && this.clock.msUntil(end, now) <= PRESPAWN_MS) {
      this.next = this.spawn(this.inS());
    }
    this.schedule(now);
  }

  private atEnd(now: number): void {
    if (this.settings.loop === 'ping-pong' && this.current && this.bank.finish(this.current)) {
      void this.current.stop();
      this.dropNext();
      this.current = null;
      this.memory = true;
      this.bank.base = this.shownRaw;
      return this.tickMemory(now);
    }
    if (this.wraps()) {
      const next = this.next ?? this.spawn(this.inS());
      this.next = null;
      void this.current?.stop();
      this.current = next;
      this.keepPass(next);
      this.clock.anchor(next.startS, now);
      this.changed();
      return this.tick();
    }
    this.ended = true;
    this.clock.setPlaying(false, this.shownRaw, now);
    if (this.settings.loop === 'once-black' && this.frameW > 0) {
      const slot = this.writer.begin(this.frameW, this.frameH);
      slot.fill(0);
      for (let i = 3; i < slot.length; i += 4) slot[i] = 255;
      this.frameNo = this.writer.commit(now);
    }
    this.changed();
  }

  /** Whether the out point goes on at the in point with a new reader (a ping-pong pass not yet kept does too). */
  private wraps(): boolean {
    if (this.settings.loop !== 'ping-pong') return this.settings.loop === 'loop';
    // The pass being kept turns back at its end: no next reader for it.
    return !this.bank.complete && (this.current === null || this.bank.source !== this.current);
  }

  /** In ping-pong, a reader from the in point is the pass to keep (its frames are bounded by the in-out span). */
  private keepPass(reader: ClipReader): void {
    if (this.settings.loop !== 'ping-pong' || this.bank.complete || Math.abs(reader.startS - this.inS()) > 0.5 / this.o.fps) return;
    const span = this.outS() - this.inS();
    if (Number.isFinite(span)) this.bank.collect(reader, Math.ceil(span * this.o.fps) + this.o.fps);
  }

  /** Ping-pong from memory: shows the kept frame the clock has reached. */
  private tickMemory(now: number): void {
    if (!this.clock.playing || this.ended) return this.schedule(now);
    const { index, raw } = this.bank.at(this.clock.at(now));
    if (raw !== this.shownRaw) this.put(this.bank.frame(index), this.bank.width, this.bank.height, raw, this.bank.positionS(index));
    this.schedule(now);
  }

  private write(frame: Buffer, positionS: number, reader: ClipReader): void {
    this.put(frame, reader.run.width, reader.run.height, positionS, reader.inFile(positionS));
    const now = Date.now();
    if (reader.run.frames === 1 && reader.run.firstFrameAt === 0) reader.run.firstFrameAt = now;
    this.retry.delivered(reader.run.startedAt, now);
  }

  /** Puts a frame into the ring: `raw` on the clock's time line, `fileS` in the file. */
  private put(frame: Buffer, width: number, height: number, raw: number, fileS: number): void {
    const slot = this.writer.begin(width, height);
    slot.set(frame.subarray(0, slot.length));
    this.frameNo = this.writer.commit(Date.now());
    this.frameW = width;
    this.frameH = height;
    this.shownRaw = raw;
    this.shownS = fileS;
    this.waitingSince = 0;
    if (this.state !== 'live') this.setState('live');
  }

  private schedule(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const cur = this.current;
    if (this.closing || (!cur && !this.memory) || !this.clock.playing || this.ended) return;
    const next = cur ? cur.nextPositionS() : this.shownRaw + 1 / this.o.fps;
    const ms = Math.min(1000 / this.o.fps, Math.max(1, this.clock.msUntil(next, now)));
    this.timer = setTimeout(() => this.tick(), ms);
  }

  private housekeeping(): void {
    if (this.closing) return;
    const now = Date.now();
    const seek = this.seeking;
    const stall = stallOf(seek ? seek.since : null, this.current ? this.waitingSince : 0, now, this.o.stallMs);
    if (stall) return this.fail(stall.seek ? seek!.reader : this.current!, stall.message, true);
    if (this.clock.playing && !this.ended && (this.current || this.memory)) this.o.onStatus(this.status());
  }

  private onReaderExit(r: ClipReader, failed: string | null): void {
    if (this.closing) return;
    if (r === this.next && failed) this.next = null;
    if (r.noAudio && this.audio && (r === this.current || r === this.seeking?.reader)) {
      // No audio track: the same reader again without the audio output, not a failure.
      this.audio = false;
      this.dropNext();
      return this.beginSeek(r === this.current ? this.shownS : r.startS, undefined);
    }
    if (failed && (r === this.current || r === this.seeking?.reader)) this.fail(r, failed);
    // A reader that ended cleanly is read to its end by tick(); one killed in a stop is done.
    else if (r === this.current) this.tick();
  }

  /** The reader died or stalled: no picture until a new one delivers; retried at the position shown, with backoff. */
  private fail(r: ClipReader, message: string, stalled = false): void {
    const at = r === this.current ? this.shownS : r.startS;
    const play = this.seeking?.play;
    for (const x of [this.current, this.next, this.seeking?.reader]) if (x) void x.stop();
    this.failWaiters(message);
    this.current = this.next = null;
    this.seeking = null;
    this.memory = false;
    this.waitingSince = 0;
    this.writer.setDown();
    this.writer.endRun();
    this.pcm?.setAudio(false);
    const what = stalled ? 'ffmpeg stalled; restarting it' : 'clip reader failed; retrying';
    this.o.onLog('warn', what, { source: this.o.key, pid: r.pid, reason: message, retryInMs: this.retry.nextMs });
    this.setState(stalled ? 'stalled' : 'retrying', message);
    this.retry.schedule(() => {
      if (!this.closing && !this.seeking) this.beginSeek(at, play);
    });
  }

  private failWaiters(message: string): void {
    const waiters = this.seeking?.waiters ?? [];
    if (this.seeking) this.seeking.waiters = [];
    for (const w of waiters) w.reject(new Error(message));
  }

  private changed(): void {
    this.o.onStatus(this.status());
  }

  private setState(state: IngestState, message?: string): void {
    this.state = state;
    this.message = message;
    this.o.onState(state, message, state === 'connecting' || state === 'live' ? this.pid : undefined);
  }
}
