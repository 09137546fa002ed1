// Limits of the control-surface interface (spec section 8), reported by GET /capabilities and used by the routes.
import { BODY_LIMIT } from '../http/adapter.js';

export const LIMITS = {
  bodyLimitBytes: BODY_LIMIT,
  selectIdMaxLength: 512,
  activationTimeoutMs: 5000,
  chainTimeoutMs: 1000,
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
