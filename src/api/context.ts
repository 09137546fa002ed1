// What route modules may read of the running application; routes get this, never globals.
// GET /status reads most of it; its part is declared beside the status schema it feeds, so the types follow the schema.
import type { StatusContext } from './status.js';
import type { OutputKind } from '../shared/protocol/output.js';

export interface AppContext extends StatusContext {
  /** Capability features of the routes actually served. */
  features(): string[];
  /** Output kinds this box can run (found at start). */
  outputKinds(): OutputKind[];
}
