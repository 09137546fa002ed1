// Scene routes: list, save, recall (one transition for the whole stack), delete, and each scene's thumbnail.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { LAYER_LIMITS, LIMITS } from '../limits.js';
import type { Scenes } from '../scenes/service.js';
import type { SceneSaved } from '../state/store.js';
import { MAX_DURATION_MS } from '../sources/mixer.js';
import { shortHash } from '../thumbnails/params.js';
import { etagMatches } from '../util/etag.js';
import { usableIdOrName, idOrNameInvalid } from './sources.js';
import { imageResponses } from './thumbnails.js';

export interface SceneRouteDeps {
  scenes: Scenes;
  /** A transition type or name → its type (404 ITEM_NOT_FOUND). */
  resolveTransition(q: string): string;
  /** The mixer's transition (GET /mix): a recall that names none uses it, as a take does. */
  defaultTransition(): { type: string; durationMs: number };
  ceiling(): number;
}

const Ref = {
  id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'scene id, matched first' })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: LAYER_LIMITS.sceneNameMax, description: 'scene name, flexible matching' })),
};

const SCENE_ETAG = {
  description: '`"scene-<width>x<height>-png-<digest>"`; the digest follows the save time',
  schema: Type.String({ pattern: '^"scene-[0-9]+x[0-9]+-png-[0-9a-f]+"$' }),
};

export const SceneViewSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  savedAt: Type.String({ description: 'ISO time of the save' }),
  layers: Type.Array(
    Type.Object({
      name: Type.String(),
      source: Type.Union([Type.Object({ kind: Type.String(), id: Type.String() }), Type.Null()]),
      opacity: Type.Number(),
      blend: Type.String(),
      mute: Type.Boolean(),
      solo: Type.Boolean(),
      effects: Type.Integer({ minimum: 0 }),
    }),
  ),
  masterEffects: Type.Integer({ minimum: 0 }),
});

export function sceneView(s: SceneSaved): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    savedAt: s.savedAt,
    layers: s.layers.map((l) => ({
      name: l.name,
      source: l.currentSource ?? null,
      opacity: l.opacity,
      blend: l.blend,
      mute: l.mute,
      solo: l.solo,
      effects: l.chain.length,
    })),
    masterEffects: s.master.length,
  };
}

export function sceneRoutes(d: SceneRouteDeps): RouteDef[] {
  const { scenes } = d;
  const ref = (b: { id?: string | undefined; name?: string | undefined }) => scenes.find(b);
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/scenes`,
      auth: 'required',
      operationId: 'listScenes',
      summary: 'Saved scenes, oldest first',
      tags: ['scenes'],
      feature: 'scenes',
      schema: {},
      responses: {
        200: {
          description: 'the scenes',
          schema: Type.Object({ count: Type.Integer(), scenes: Type.Array(SceneViewSchema), max: Type.Integer() }),
        },
      },
      errors: [],
      handler: () => {
        const list = scenes.list();
        return { json: { count: list.length, max: LAYER_LIMITS.scenesMax, scenes: list.map(sceneView) } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/scenes/save`,
      auth: 'required',
      operationId: 'saveScene',
      summary: 'Save the whole stack as a scene',
      description: `Stores every layer's source, chain (values and modulators), opacity, blend, mute and solo, and the master chain, with an image of the output. A scene of the same name (case-insensitive) is replaced. At ${LAYER_LIMITS.scenesMax} scenes: 403 SCENE_LIMIT_REACHED.`,
      tags: ['scenes'],
      feature: 'scenes',
      schema: { body: Type.Object({ name: Type.String({ minLength: 1, maxLength: LAYER_LIMITS.sceneNameMax, pattern: '\\S' }) }) },
      responses: { 200: { description: 'the saved scene', schema: Type.Object({ success: Type.Literal(true), scene: SceneViewSchema }) } },
      errors: ['INVALID_REQUEST', 'SCENE_LIMIT_REACHED'],
      handler: async (req) => ({ json: { success: true, scene: sceneView(await scenes.save(req.body.name.trim())) } }),
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/scenes/recall`,
      auth: 'required',
      operationId: 'recallScene',
      summary: 'Switch the whole stack to a scene',
      description:
        `The changed layers' sources are cued first (warm), then chains and blending are set and every changed layer is taken with \`transition\` over \`durationMs\` (default: the mixer's transition, GET /mix, as for a take; a named transition without a duration lasts 1000 ms). The answer is sent once the first frame of the new scene is on the output (budget ${LIMITS.activationTimeoutMs} ms per source: 504 ACTIVATION_TIMEOUT, nothing taken). ` +
        'Layers the scene lacks are added; layers beyond it are removed after the take.',
      tags: ['scenes'],
      feature: 'scenes',
      schema: {
        body: Type.Intersect([
          Type.Object({
            ...Ref,
            transition: Type.Optional(
              Type.String({ minLength: 1, maxLength: 64, description: 'transition type or name (GET /transitions)' }),
            ),
            durationMs: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_DURATION_MS })),
          }),
          usableIdOrName,
        ]),
      },
      invalid: idOrNameInvalid,
      responses: {
        200: { description: 'the recalled scene', schema: Type.Object({ success: Type.Literal(true), scene: SceneViewSchema }) },
      },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND', 'ACTIVATION_TIMEOUT', 'SOURCE_LOAD_FAILED', 'TRANSITION_LOAD_FAILED', 'CHAIN_BUSY'],
      handler: async (req) => {
        const b = req.body as { id?: string; name?: string; transition?: string; durationMs?: number };
        const scene = ref(b);
        const fallback = d.defaultTransition();
        const transition = b.transition !== undefined ? d.resolveTransition(b.transition) : fallback.type;
        const durationMs = b.durationMs ?? (b.transition === undefined ? fallback.durationMs : transition !== 'cut' ? 1000 : 0);
        await scenes.recall(scene, { transition, durationMs, ceiling: d.ceiling() });
        return { json: { success: true, scene: sceneView(scene) } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${API_PREFIX}/scenes/delete`,
      auth: 'required',
      operationId: 'deleteScene',
      summary: 'Delete a scene',
      tags: ['scenes'],
      feature: 'scenes',
      schema: { body: Type.Intersect([Type.Object(Ref), usableIdOrName]) },
      invalid: idOrNameInvalid,
      responses: { 200: { description: 'deleted', schema: Type.Object({ success: Type.Literal(true), id: Type.String() }) } },
      errors: ['INVALID_REQUEST', 'ITEM_NOT_FOUND'],
      handler: async (req) => {
        const scene = ref(req.body as { id?: string; name?: string });
        await scenes.delete(scene);
        return { json: { success: true, id: scene.id } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/thumbnails/scene/:id`,
      auth: 'required',
      operationId: 'getSceneThumbnail',
      summary: 'The image of the output kept when the scene was saved (PNG)',
      description:
        'The ETag follows the save time; If-None-Match with it answers 304. A scene saved while the output had no frame: 404 ITEM_NOT_FOUND.',
      tags: ['scenes'],
      feature: 'scenes',
      schema: { params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }) },
      invalid: () => new ApiError('ITEM_NOT_FOUND', 'no scene has that id'),
      responses: imageResponses(SCENE_ETAG, { description: 'the image', contentType: 'image/png' }),
      errors: ['ITEM_NOT_FOUND'],
      handler: async (req) => {
        const scene = scenes.find({ id: req.params.id });
        const { width, height } = scenes.imageBox;
        const etag = `"scene-${width}x${height}-png-${shortHash('scene', scene.id, scene.savedAt)}"`;
        const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
        if (etagMatches(req.headers['if-none-match'], etag)) return { status: 304, headers };
        const bytes = await scenes.image(scene.id);
        if (!bytes) throw new ApiError('ITEM_NOT_FOUND', `scene "${scene.name}" has no image`);
        return { status: 200, body: bytes, contentType: 'image/png', headers };
      },
    }),
  ];
}
