// What route modules may read of the running application; routes get this, never globals.
import type { HttpEngine } from '../http/uws.js';
import type { ListenerStatus } from '../http/listener.js';
import type { LicenseCheck } from '../license/license.js';
import type { LoadedConfig } from '../config/load.js';
import type { NetworkAddress } from './network.js';
import type { RenderStatus, ThumbnailStatus } from '../api/status.js';

export interface AppContext {
  readonly name: 'vjd';
  readonly version: string;
  readonly startedAt: Date;
  readonly engine: HttpEngine;
  config(): LoadedConfig;
  listener(): ListenerStatus;
  addresses(): NetworkAddress[];
  license(): LicenseCheck;
  apiKeyRequired(): boolean;
  /** Render statistics (a new object only when they change). */
  render(): RenderStatus;
  /** Thumbnail pipeline counters, and a number that changes whenever they do (memoised status bodies). */
  thumbnails(): ThumbnailStatus;
  thumbnailsVersion(): number;
  /** Capability features of the routes actually served. */
  features(): string[];
}
