// POST /sources/warm: opens a source's reader ahead of a likely cue (the page asks when a Browse row is pointed at or
// focused), so the double-click that follows finds its first frame ready.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { INGEST_LIMITS, LIMITS } from '../limits.js';
import type { SourceManager } from '../sources/source-manager.js';
import { kindsSelectedBy } from '../sources/kinds/index.js';
import type { WarmAhead } from '../sources/warm-ahead.js';

const Body = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: LIMITS.selectIdMaxLength, description: 'source id as browse and GET /sources list it' }) },
  { additionalProperties: false },
);

const Answer = Type.Object({
  success: Type.Literal(true),
  id: Type.String({ description: 'the source warmed' }),
  state: Type.Union([Type.Literal('opening'), Type.Literal('warm'), Type.Literal('not-needed')], {
    description:
      '`opening`: its reader is starting; `warm`: it delivers frames; `not-needed`: a generator or preset (drawn by the renderer, nothing to open)',
  }),
  holdMs: Type.Integer({ minimum: 0, description: 'how long the reader stays open without another ask' }),
});

export function warmRoutes(d: { sources: Pick<SourceManager, 'resolve'>; warm: Pick<WarmAhead, 'warm'> }): RouteDef[] {
  return [
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/sources/warm`,
      auth: 'required',
      operationId: 'warmSource',
      summary: "Open a source's reader ahead of a cue",
      description:
        `A live input or media file: its reader (ffmpeg) opens now and stays open ${INGEST_LIMITS.warmHoldMs} ms after the last ask, so a cue, take or select of it shortly after finds its frames ready instead of waiting for ffmpeg. ` +
        `At most ${INGEST_LIMITS.warmMax} readers are held warm; a new one lets the oldest go (a reader another role holds, such as the program, stays open). ` +
        'A media clip opened this way waits paused at its start and plays once a cue or select takes it, so it is taken from its first frame. Answers at once; nothing on the output changes. 404 ITEM_NOT_FOUND as for POST /mix/cue.',
      tags: ['sources'],
      feature: 'sources',
      schema: { body: Body },
      responses: { 200: { description: 'the reader is opening or warm', schema: Answer } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND'],
      handler: (req) => {
        const entry = d.sources.resolve(kindsSelectedBy('source'), { id: req.body.id }, 'source');
        const state = d.warm.warm(entry);
        return { json: { success: true, id: entry.id, state, holdMs: state === 'not-needed' ? 0 : INGEST_LIMITS.warmHoldMs } };
      },
    }),
  ];
}
