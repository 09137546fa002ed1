// The compile helper process (see compile-helper.ts): links and draws each fused shader it is sent in its own
// headless-gl context, so Mesa's on-disk shader cache holds the compiled program and its machine code before
// the render thread compiles the same shader. Exits when the render worker goes (its IPC channel closes).
import createGL from 'gl';
import { Quad } from '../gl-util.js';
import { FusedProgram } from './fused-program.js';
import { WarmUp } from './warm-up.js';
import type { FuseCompileReply, FuseCompileRequest } from '../../../src/shared/protocol/render.js';
import { expired } from '../../../src/shared/rpc.js';
import { failure, replyFailure } from '../../../src/shared/protocol/common.js';

const width = Number(process.argv[2]);
const height = Number(process.argv[3]);
const gl = createGL(16, 16, { preserveDrawingBuffer: false, antialias: false, depth: false, stencil: false });
if (!gl) {
  process.stderr.write('compile helper: headless-gl could not create a context\n');
  process.exit(1);
}
const quad = new Quad(gl);
const warm = new WarmUp(gl, width, height);
const send = (m: FuseCompileReply): void => {
  process.send?.(m);
};

process.on('message', (m: FuseCompileRequest) => {
  // The render thread stopped waiting for this one; compiling it would only delay the next.
  if (expired(m)) return void send(failure(m.id, 'expired', 'past its deadline'));
  let program: FusedProgram | null = null;
  try {
    program = FusedProgram.create(gl, quad, m.fragment, []);
    warm.draw(program, m.nearest);
    send({ t: 'fuse-reply', id: m.id, ok: true });
  } catch (err) {
    replyFailure(send, m.id, err);
  } finally {
    program?.destroy();
  }
});
process.on('disconnect', () => process.exit(0));
send({ t: 'fuse-reply', id: 0, ok: true });
