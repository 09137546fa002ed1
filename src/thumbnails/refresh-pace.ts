// How often the program and layer thumbnails follow the output. Normally every output frame is a new image; while
// the pipeline is short (encoders dropping frames, a late main thread) one image stands for a run of frames, so
// pollers get 304 within the run and the encode pool, which scales and encodes each new image, keeps its time for
// the streams and recordings. A thumbnail is what costs least to lose, after the MJPEG previews.

/** Images a second the program and layer thumbnails follow while the pipeline is short. */
export const SHORT_PIPELINE_THUMBS_PER_S = 5;

export class RefreshPace {
  private short: () => boolean = () => false;
  /** Thumbnail requests labelled with an earlier frame than the output's because the pipeline was short. */
  held = 0;

  constructor(private readonly fps: number) {}

  /** What says the pipeline is short (the pressure meter, once the outputs run). */
  follow(short: () => boolean): void {
    this.short = short;
  }

  /** The output frame counter an image is labelled with: the counter itself, or the first frame of its run. */
  frame(counter: number): number {
    if (!this.short()) return counter;
    const run = Math.max(1, Math.round(this.fps / SHORT_PIPELINE_THUMBS_PER_S));
    const shown = counter - (counter % run);
    if (shown !== counter) this.held++;
    return shown;
  }
}
