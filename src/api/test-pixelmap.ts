// Test hook of the GPU sampling pass (pixel mapping): hands a sample table and a fresh samples block to the render
// worker and answers with what the block holds once a whole frame after the hand-over wrote it, so tests and the cost
// check see the pass end to end without fixtures, patches or a sender.
import Type from 'typebox';
import { defineRoute, API_PREFIX, type RouteDef } from '../http/route.js';
import { ApiError } from '../errors.js';
import { createPixelSamples, PixelSamplesReader } from '../shared/pixel-samples.js';
import type { RenderClient } from '../workers/render-client.js';

/** How long the answer waits for the block to move on (frames on a loaded test box can be slow). */
const WAIT_MS = 5000;
const POLL_MS = 5;
const MAX_POINTS = 65_536;

const Unit = Type.Number({ minimum: 0, maximum: 1 });
const Half = Type.Number({ minimum: 0, maximum: 0.5 });

const Body = Type.Object(
  {
    points: Type.Optional(Type.Array(Type.Tuple([Unit, Unit, Half, Half]), { maxItems: 1024, description: '[u, v, du, dv] each' })),
    /** Large tables do not fit a request body: cols × rows cell centres in row order, each averaging ± du, dv. */
    grid: Type.Optional(
      Type.Object(
        {
          cols: Type.Integer({ minimum: 1, maximum: 4096 }),
          rows: Type.Integer({ minimum: 1, maximum: 4096 }),
          du: Half,
          dv: Half,
        },
        { additionalProperties: false },
      ),
    ),
    /** Leaves the pass running after the answer (the cost check); otherwise it stops. */
    keep: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

function tableOf(body: { points?: number[][]; grid?: { cols: number; rows: number; du: number; dv: number } }): Float32Array {
  if (body.points) return new Float32Array(body.points.flat());
  const g = body.grid;
  if (!g) return new Float32Array(0);
  if (g.cols * g.rows > MAX_POINTS) throw new ApiError('INVALID_REQUEST', `a grid of at most ${MAX_POINTS} points`);
  const t = new Float32Array(g.cols * g.rows * 4);
  for (let r = 0; r < g.rows; r++)
    for (let c = 0; c < g.cols; c++) t.set([(c + 0.5) / g.cols, (r + 0.5) / g.rows, g.du, g.dv], (r * g.cols + c) * 4);
  return t;
}

/** `restore` hands the render worker the pixel-mapping service's own table again once the hook is done with it. */
export function testPixelMapRoute(render: RenderClient, restore: () => void): RouteDef {
  return defineRoute({
    method: 'POST',
    path: `${API_PREFIX}/_test/pixel-map`,
    auth: 'required',
    operationId: 'testPixelMap',
    summary: 'Sample the output at fixture points on the GPU and answer with the samples block (test hook)',
    tags: ['test'],
    hidden: true,
    schema: { body: Body },
    responses: {
      200: { description: '{frame, samples: [[r, g, b, a], …]} in table order; neither points nor grid: the pixel-mapping table again' },
    },
    errors: ['INVALID_REQUEST', 'CHAIN_BUSY'],
    handler: async (req) => {
      const table = tableOf(req.body);
      const n = table.length / 4;
      if (n === 0) {
        restore();
        return { json: { frame: null, samples: [] } };
      }
      const block = createPixelSamples(n);
      render.setPixelMap(table, block);
      try {
        const rgba = await nextFrame(block, n);
        const samples: number[][] = [];
        for (let i = 0; i < n; i++) samples.push(Array.from(rgba.data.subarray(i * 4, i * 4 + 4)));
        return { json: { frame: rgba.frame, samples } };
      } finally {
        if (req.body.keep !== true) restore();
      }
    },
  });
}

/** The block's samples from the second frame that wrote it, so whatever was posted before the table has drawn. */
async function nextFrame(block: SharedArrayBuffer, n: number): Promise<{ frame: number; data: Uint8Array }> {
  const reader = new PixelSamplesReader(block);
  const data = new Uint8Array(n * 4);
  const deadline = Date.now() + WAIT_MS;
  let first: number | null = null;
  while (Date.now() < deadline) {
    const r = reader.read(data);
    if (r && r.count === n) {
      if (first === null) first = r.frame;
      else if (r.frame !== first) return { frame: r.frame, data };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new ApiError('CHAIN_BUSY', `the render worker wrote no pixel samples within ${WAIT_MS} ms`);
}
