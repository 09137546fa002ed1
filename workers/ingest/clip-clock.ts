// The position clock of a clip: while playing, the position advances speed × elapsed wall time from an anchor;
// paused, it stands. A speed change re-anchors at the position reached, so it applies from the next frame.

export class ClipClock {
  private wall = 0;
  private pos = 0;
  playing = false;
  speed = 1;

  /** Position (s) at wall time `now` (ms). */
  at(now: number): number {
    return this.playing ? this.pos + (this.speed * (now - this.wall)) / 1000 : this.pos;
  }

  /** Sets the position at `now`, keeping play state and speed. */
  anchor(positionS: number, now: number): void {
    this.pos = positionS;
    this.wall = now;
  }

  setSpeed(speed: number, now: number): void {
    this.anchor(this.at(now), now);
    this.speed = speed;
  }

  /** Starts or stops the clock at `positionS` (the picture on the output, so a resume starts from it). */
  setPlaying(playing: boolean, positionS: number, now: number): void {
    this.playing = playing;
    this.anchor(positionS, now);
  }

  /** Wall milliseconds until position `positionS` is reached (0 when it is, or the clock stands). */
  msUntil(positionS: number, now: number): number {
    if (!this.playing) return 0;
    return Math.max(0, ((positionS - this.at(now)) * 1000) / this.speed);
  }
}
