// The one error registry: every error code vjd answers with, its HTTP status and default message.
// The OpenAPI description and the error table in docs/api.md are checked against this list by a test.
import {
  AUDIO_LIMITS,
  CUE_LIMITS,
  LAYER_LIMITS,
  LIMITS,
  NOT_FOUND_AVAILABLE_MAX,
  OUTPUT_LIMITS,
  PREVIEW_LIMITS,
  SCHEDULE_LIMITS,
} from './limits.js';

const { browse, chainTimeoutMs, activationTimeoutMs, thumbnails } = LIMITS;

export const ERRORS = {
  INVALID_PATH: {
    status: 400,
    message: `path is longer than ${browse.pathMaxLength} characters or has characters outside A-Z a-z 0-9 / _ -`,
  },
  INVALID_DEPTH: { status: 400, message: `depth must be an integer from ${browse.depthMin} to ${browse.depthMax}` },
  INVALID_REQUEST: { status: 400, message: 'the request is not valid' },
  INVALID_AT: {
    status: 400,
    message: 'at must be an ISO 8601 instant with a time zone, "nextBeat", "nextBar" or {"beat": n}, and only on a POST',
  },
  UNAUTHORIZED: { status: 401, message: 'a valid API key is required (X-API-Key or Authorization: Bearer)' },
  EFFECT_LIMIT_REACHED: { status: 403, message: 'the effects chain is at the effect ceiling of the license tier' },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    message: 'a web page on another site may not open the events socket; add its origin to server.allowedOrigins',
  },
  OUTPUT_LIMIT_REACHED: { status: 403, message: `vjd runs at most ${OUTPUT_LIMITS.max} outputs; remove one first` },
  LAYER_LIMIT_REACHED: { status: 403, message: 'the stack holds render.maxLayers layers; remove one first' },
  SCENE_LIMIT_REACHED: { status: 403, message: `vjd keeps at most ${LAYER_LIMITS.scenesMax} scenes; delete one first` },
  CUE_LIMIT_REACHED: { status: 403, message: `the cue list holds at most ${CUE_LIMITS.cuesMax} cues; delete one first` },
  AUDIO_INPUT_LIMIT_REACHED: {
    status: 403,
    message: `vjd keeps at most ${AUDIO_LIMITS.addedMax} added audio inputs; remove one first`,
  },
  NOT_FOUND: { status: 404, message: 'no such route' },
  PATH_NOT_FOUND: { status: 404, message: 'the path names no folder' },
  ITEM_NOT_FOUND: { status: 404, message: 'no matching item' },
  DEVICE_NOT_FOUND: { status: 404, message: 'no live input matches that id' },
  LAYER_NOT_FOUND: { status: 404, message: 'no layer at that position (GET /layers lists them, 1 is the bottom)' },
  NO_CURRENT_PALETTE: { status: 404, message: 'no palette is selected' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'method not allowed on this route' },
  NO_BEAT_GRID: {
    status: 409,
    message: 'the tempo clock has no beat grid (auto source without a detected beat); set the BPM, tap, or send an instant',
  },
  CUE_LIST_END: { status: 409, message: 'there is no cue that way: the list is at its end (or empty); jump to a cue instead' },
  OUTPUT_CONFIGURED: { status: 409, message: 'the output comes from the config file; disable it, or remove it from the file' },
  AUDIO_INPUT_CONFIGURED: {
    status: 409,
    message: 'the audio input comes from the config file (audio.inputs) or is a discovered device; change it there',
  },
  AUDIO_INPUT_EXISTS: { status: 409, message: 'an audio input of that id exists; pick another id, or edit that input' },
  NOTHING_CUED: { status: 409, message: 'nothing is cued on the preview bus; POST /mix/cue first' },
  RECORDING_ACTIVE: { status: 409, message: 'the recording is still being written; disable its output first' },
  PRESET_EXISTS: { status: 409, message: 'an effect preset of that name exists; send overwrite: true to replace it' },
  EFFECT_NOT_COMPILED: {
    status: 409,
    message: 'the effect is listed but its shader does not compile, so it has no picture; GET /catalog/errors says why',
  },
  NOT_A_GENERATOR: { status: 409, message: 'the program source is not a generator, so it has no parameters' },
  NOT_A_CLIP: { status: 409, message: 'the source on that bus is not a media clip, so it has no transport' },
  MIDI_LEARN_BUSY: { status: 409, message: 'a MIDI learn is already waiting for a message; nothing was bound' },
  SHOW_NOT_LEADER: { status: 409, message: 'only the show leader mirrors operations to other boxes; send it without show' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'request body is larger than the limit' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'a request body must be sent with Content-Type: application/json' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'the Range header asks for no byte of the file' },
  MISDIRECTED_REQUEST: { status: 421, message: 'this server does not answer for that Host; add the name to server.allowedHosts' },
  AT_IN_PAST: { status: 422, message: 'the instant in at has passed; nothing was scheduled' },
  AT_TOO_FAR: {
    status: 422,
    message: `the instant in at is more than ${SCHEDULE_LIMITS.aheadMaxMs / 60_000} minutes ahead; nothing was scheduled`,
  },
  UPGRADE_REQUIRED: { status: 426, message: 'this route is a WebSocket: connect with Upgrade: websocket' },
  INTERNAL: { status: 500, message: 'internal error' },
  EFFECT_LOAD_FAILED: { status: 500, message: 'the effect type is installed but could not be created' },
  SOURCE_LOAD_FAILED: { status: 500, message: 'the generator is installed but its shader does not load or compile' },
  TRANSITION_LOAD_FAILED: { status: 500, message: 'the transition is installed but its shader does not load or compile' },
  CHAIN_BUSY: {
    status: 503,
    message: `the effects chain was not readable or updatable within ${chainTimeoutMs} ms; nothing changed; retry`,
  },
  PREVIEW_LIMIT: { status: 503, message: `at most ${PREVIEW_LIMITS.clients} preview streams at once; close one first` },
  PREVIEW_TIMEOUT: { status: 503, message: `frame readback did not complete within ${thumbnails.readbackTimeoutMs} ms` },
  THUMBNAIL_QUEUE_FULL: { status: 503, message: 'thumbnail queue is full; retry after a short wait' },
  AUDIO_BUSY: { status: 503, message: 'the audio worker did not take the command (it is restarting); nothing changed; retry' },
  SCHEDULE_FULL: {
    status: 503,
    message: `${SCHEDULE_LIMITS.waitingMax} operations already wait for their instant; cancel one or wait`,
  },
  SHOW_NOT_CONNECTED: { status: 503, message: 'the show broker is not connected; nothing was sent' },
  STATE_NOT_SAVED: { status: 503, message: 'the change is applied but could not be written to disk yet; vjd keeps retrying' },
  MIDI_LEARN_TIMEOUT: { status: 504, message: 'no MIDI message arrived within the learn time; nothing was bound' },
  ACTIVATION_TIMEOUT: {
    status: 504,
    message: `activation did not complete within ${activationTimeoutMs} ms; the previous source keeps driving the output`,
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** Error body sent on every error: `{error: true, code, message, details?}`. */
export interface ErrorBody {
  error: true;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Thrown (or returned) by handlers; the adapter turns it into the error body and status. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** Extra response headers (e.g. Allow on 405, WWW-Authenticate on 401, Retry-After on 503). */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message ?? ERRORS[code].message);
    this.code = code;
    this.status = ERRORS[code].status;
    this.details = details;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: true, code: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}

/**
 * 404 ITEM_NOT_FOUND for a lookup that matched nothing, in the one shape every route documents:
 * `details {requested, kind, available}`. `phrase` starts the message (default `no <kind> matches`); the requested
 * text is quoted after it, cut to 80 characters so a long id does not flood a log line.
 */
export function notFound(kind: string, requested: string, available: readonly string[], phrase = `no ${kind} matches`): ApiError {
  const shown = requested.length > 80 ? `${requested.slice(0, 80)}…` : requested;
  return new ApiError('ITEM_NOT_FOUND', `${phrase} "${shown}"`, {
    requested: requested.slice(0, LIMITS.selectIdMaxLength),
    kind,
    available: available.slice(0, NOT_FOUND_AVAILABLE_MAX),
  });
}
