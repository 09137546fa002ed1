// Limits of the control-surface interface (spec section 8), reported by GET /capabilities and used by the routes.
export const LIMITS = {
  bodyLimitBytes: 64 * 1024,
  selectIdMaxLength: 512,
  activationTimeoutMs: 5000,
  chainTimeoutMs: 1000,
  /** A mutation is answered once it is on disk; a disk slower than this gets 503 STATE_NOT_SAVED (the change stays applied). */
  durableWaitMs: 3000,
  browse: { pathMaxLength: 512, depthMin: 1, depthMax: 3, depthDefault: 1 },
  thumbnails: {
    sizeMin: 32,
    sizeMax: 512,
    sizeDefault: 192,
    formats: ['png', 'jpg'],
    liveIdMaxLength: 256,
    queueRejectAbove: 32,
    queueResumeAt: 16,
    readbackTimeoutMs: 500,
    liveFrameMaxAgeMs: 2000,
  },
} as const;
