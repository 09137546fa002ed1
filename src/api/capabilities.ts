// GET /capabilities: features actually served, API version, license tier and the interface limits.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import type { AppContext } from './context.js';
import { LIMITS, OUTPUT_LIMITS, PREVIEW_LIMITS } from '../limits.js';
import type { AudioKind } from '../audio/service.js';

/** Every audio input kind vjd knows; GET /capabilities lists those this box can open now. */
const AudioKindSchema = Type.Union([
  Type.Literal('test'),
  Type.Literal('stream'),
  Type.Literal('file'),
  Type.Literal('program'),
  Type.Literal('alsa'),
  Type.Literal('pulse'),
]);

export const CapabilitiesBody = Type.Object({
  apiVersion: Type.Literal('v1'),
  version: Type.String(),
  features: Type.Array(Type.String(), {
    description:
      'feature names of the routes this build serves, each once, e.g. effects-catalogue or midi (GET /midi, POST /midi/learn); osc and dmx also while their receivers listen',
  }),
  license: Type.Object({
    tier: Type.String(),
    licensee: Type.String(),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  }),
  outputs: Type.Object(
    {
      kinds: Type.Array(Type.Union([Type.Literal('stream'), Type.Literal('record'), Type.Literal('display'), Type.Literal('v4l2')]), {
        description:
          'output kinds this box can run: `stream` and `record` when its ffmpeg has libx264 (checked at start); `display` while an X server answers on the display of a configured display output (`:0` when none); `v4l2` while a v4l2loopback device exists (both looked at every 10 s)',
      }),
      max: Type.Integer({ description: 'outputs at once, config file and added together' }),
      preview: Type.Object(
        {
          clients: Type.Integer({ description: 'MJPEG preview streams at once' }),
          sizeMin: Type.Integer(),
          sizeMax: Type.Integer(),
          sizeDefault: Type.Integer(),
          fpsMin: Type.Integer(),
          fpsMax: Type.Integer(),
          fpsDefault: Type.Integer(),
        },
        { description: 'GET /output/preview.mjpeg' },
      ),
    },
    { description: 'what GET/POST /outputs and the preview can do on this box' },
  ),
  audio: Type.Object(
    {
      kinds: Type.Array(AudioKindSchema, {
        description:
          'audio input kinds this box can open: `test`, `stream`, `file` and `program` always; `alsa` when ffmpeg has the alsa demuxer and /dev/snd or an ALSA capture device exists; `pulse` when ffmpeg has the pulse demuxer and a PulseAudio (or PipeWire) server answers (both looked at every 3 s)',
      }),
    },
    { description: 'what the audio inputs (GET /audio) can be on this box' },
  ),
  limits: Type.Object({
    effectCeiling: Type.Integer({ description: 'effects chain length ceiling of the license tier (community 8, pro 32, studio 128)' }),
    bodyLimitBytes: Type.Integer(),
    selectIdMaxLength: Type.Integer(),
    activationTimeoutMs: Type.Integer(),
    chainTimeoutMs: Type.Integer(),
    browse: Type.Object({
      pathMaxLength: Type.Integer(),
      depthMin: Type.Integer(),
      depthMax: Type.Integer(),
      depthDefault: Type.Integer(),
    }),
    thumbnails: Type.Object({
      sizeMin: Type.Integer(),
      sizeMax: Type.Integer(),
      sizeDefault: Type.Integer(),
      formats: Type.Array(Type.String()),
      liveIdMaxLength: Type.Integer(),
      queueRejectAbove: Type.Integer(),
      queueResumeAt: Type.Integer(),
      readbackTimeoutMs: Type.Integer(),
      liveFrameMaxAgeMs: Type.Integer(),
    }),
  }),
});

export function capabilitiesRoutes(ctx: AppContext, audioKinds: () => AudioKind[]): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/capabilities`,
      auth: 'required',
      operationId: 'getCapabilities',
      summary: 'Supported features, license tier and limits',
      description:
        'Lists only features whose routes this server serves; a client detects optional routes (effects-catalogue, browse, live thumbnails) here.',
      tags: ['server'],
      feature: 'capabilities',
      schema: {},
      responses: { 200: { description: 'capabilities', schema: CapabilitiesBody } },
      errors: [],
      handler: () => {
        const lic = ctx.license();
        return {
          json: {
            apiVersion: 'v1',
            version: ctx.version,
            // A transport's live state and its routes may both name one feature.
            features: [...new Set(ctx.features())],
            license: lic.valid
              ? { tier: lic.tier, licensee: lic.license.licensee, expiresAt: lic.expiresAt ? lic.expiresAt.toISOString() : null }
              : { tier: 'none', licensee: '', expiresAt: null },
            outputs: {
              kinds: ctx.outputKinds(),
              max: OUTPUT_LIMITS.max,
              preview: {
                clients: PREVIEW_LIMITS.clients,
                sizeMin: PREVIEW_LIMITS.size.min,
                sizeMax: PREVIEW_LIMITS.size.max,
                sizeDefault: PREVIEW_LIMITS.size.default,
                fpsMin: PREVIEW_LIMITS.fps.min,
                fpsMax: PREVIEW_LIMITS.fps.max,
                fpsDefault: PREVIEW_LIMITS.fps.default,
              },
            },
            audio: { kinds: audioKinds() },
            limits: {
              effectCeiling: lic.valid ? lic.effectCeiling : 0,
              ...LIMITS,
              thumbnails: { ...LIMITS.thumbnails, formats: [...LIMITS.thumbnails.formats] },
            },
          },
        };
      },
    }),
  ];
}
