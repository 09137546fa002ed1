// GET /output/preview.mjpeg: the program as an endless multipart JPEG stream (a browser shows it in an <img>).
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { PREVIEW_LIMITS } from '../limits.js';
import { BOUNDARY, parseClamped, type PreviewHub } from '../outputs/preview.js';

const { size, fps, clients } = PREVIEW_LIMITS;

const Query = Type.Object({
  size: Type.Optional(
    Type.String({
      description: `longest edge in pixels: a whole number is clamped to ${size.min}-${size.max}; anything else takes the default ${size.default}`,
      examples: ['320'],
    }),
  ),
  fps: Type.Optional(
    Type.String({
      description: `frames a second: a whole number is clamped to ${fps.min}-${fps.max}; anything else takes the default ${fps.default}`,
      examples: ['10'],
    }),
  ),
});

export function previewRoutes(hub: PreviewHub): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/output/preview.mjpeg`,
      auth: 'required',
      operationId: 'getOutputPreview',
      summary: 'Live MJPEG preview of the program',
      description: `An endless \`multipart/x-mixed-replace\` stream of JPEG parts (each with Content-Type and Content-Length), the program after effects, dimmer and blackout. All clients at the same size and fps share one encode per frame. A client that reads slowly gets fewer frames. At most ${clients} clients at once (503 PREVIEW_LIMIT).`,
      tags: ['outputs'],
      feature: 'output-preview',
      schema: { query: Query },
      responses: {
        200: {
          description: `JPEG parts separated by \`--${BOUNDARY}\`, until the client closes the connection`,
          contentType: `multipart/x-mixed-replace; boundary=${BOUNDARY}`,
          schema: Type.String({ format: 'binary' }),
          headers: { 'Cache-Control': { description: 'always `no-store`' } },
        },
      },
      errors: ['PREVIEW_LIMIT'],
      handler: (req) => {
        hub.checkRoom();
        const s = parseClamped(req.query.size, size);
        const f = parseClamped(req.query.fps, fps);
        return {
          contentType: `multipart/x-mixed-replace; boundary=${BOUNDARY}`,
          headers: { 'Cache-Control': 'no-store' },
          stream: { start: (sink) => hub.attach(sink, s, f) },
        };
      },
    }),
  ];
}
