// Recordings: list, download (with byte ranges, streamed from disk) and delete the files the record kind wrote.
// Only names in the listing are ever opened: a request names a file, never a path.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import Type from 'typebox';
import { ApiError } from '../errors.js';
import { defineRoute, API_PREFIX, type Reply, type RouteDef, type StreamSink } from '../http/route.js';
import type { Recording, Recordings } from '../outputs/recordings.js';

const MKV = 'video/x-matroska';
const READ_CHUNK = 256 * 1024;

const RecordingSchema = Type.Object({
  file: Type.String({ description: '`<output id>-<UTC timestamp>.mkv`' }),
  outputId: Type.String(),
  startedAt: Type.String({ format: 'date-time', description: 'from the file name' }),
  durationSeconds: Type.Union([Type.Number(), Type.Null()], {
    description: 'from ffprobe once complete; null while written or when the container has none (a file cut by a kill)',
  }),
  bytes: Type.Integer(),
  complete: Type.Boolean({ description: 'false while ffmpeg is writing the file' }),
});

const FileParam = Type.Object({
  file: Type.String({ description: 'a `file` from GET /recordings; any other name (a path, `..`) is 404 ITEM_NOT_FOUND' }),
});

const NotFoundDetails = Type.Object({ requested: Type.String(), kind: Type.Literal('recording'), available: Type.Array(Type.String()) });

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` → inclusive byte range; null to serve the whole file (no or unusable header). */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null; // several ranges or another unit: the whole file (RFC 9110 14.2)
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/**
 * Pipes a byte range of a file to the sink, reading only while the socket takes it. The file is opened without
 * following a link: one swapped in for the listed file after the listing is cut off, never served.
 */
function pipeFile(path: string, start: number, end: number, sink: StreamSink): void {
  const length = end - start + 1;
  let sent = 0;
  const opened = async (): Promise<void> => {
    // O_NONBLOCK: a pipe swapped in after the listing must not hold a file thread in open().
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (sink.closed || !(await handle.stat()).isFile()) throw new Error('not a regular file');
    } catch (err) {
      await handle.close();
      throw err;
    }
    const file = handle.createReadStream({ start, end, highWaterMark: READ_CHUNK });
    sink.onClose(() => file.destroy());
    sink.onDrain(function resume() {
      sink.onDrain(resume);
      file.resume();
    });
    file.on('data', (chunk) => {
      sent += (chunk as Buffer).byteLength;
      if (!sink.write(chunk as Buffer)) file.pause();
    });
    // A file cut short (or unreadable) after the headers promised a length: close rather than send a short body.
    file.on('end', () => {
      if (sent < length) sink.abort();
    });
    file.on('error', () => sink.abort());
  };
  opened().catch(() => {
    if (!sink.closed) sink.abort();
  });
}

function download(rec: Recording, dir: string, rangeHeader: string): Reply {
  const size = rec.bytes;
  const range = rangeHeader === '' ? null : parseRange(rangeHeader, size);
  if (range === 'unsatisfiable')
    throw new ApiError('RANGE_NOT_SATISFIABLE', `the file has ${size} bytes`, undefined, { 'Content-Range': `bytes */${size}` });
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'no-store',
    'Content-Disposition': `attachment; filename="${rec.file}"`,
  };
  if (range) headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
  return {
    status: range ? 206 : 200,
    contentType: MKV,
    headers,
    stream: { length, start: (sink) => pipeFile(join(dir, rec.file), start, end, sink) },
  };
}

export function recordingRoutes(recordings: Recordings): RouteDef[] {
  const fileHeaders = {
    'Accept-Ranges': { description: 'always `bytes`' },
    'Content-Disposition': { description: '`attachment; filename="<file>"`' },
    'Cache-Control': { description: 'always `no-store`' },
  };
  return [
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/recordings`,
      auth: 'required',
      operationId: 'listRecordings',
      summary: 'Files written by record outputs, newest first',
      tags: ['outputs'],
      feature: 'recordings',
      schema: {},
      responses: {
        200: {
          description: 'every recording in the recordings folder',
          schema: Type.Object({ count: Type.Integer(), items: Type.Array(RecordingSchema) }),
        },
      },
      errors: [],
      handler: async () => {
        const items = await recordings.list();
        return { json: { count: items.length, items } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${API_PREFIX}/recordings/:file`,
      auth: 'required',
      operationId: 'getRecording',
      summary: 'Download a recording (byte ranges supported)',
      description:
        'Streams the file from disk. `Range: bytes=a-b` (one range; `a-` and `-n` forms too) answers 206 with `Content-Range`; a range starting past the end answers 416 with `Content-Range: bytes */<size>`. A file still being written is served as far as it was at the request.',
      tags: ['outputs'],
      feature: 'recordings',
      schema: { params: FileParam },
      responses: {
        200: { description: 'the whole file', contentType: MKV, schema: Type.String({ format: 'binary' }), headers: fileHeaders },
        206: {
          description: 'the asked byte range',
          contentType: MKV,
          schema: Type.String({ format: 'binary' }),
          headers: { ...fileHeaders, 'Content-Range': { description: '`bytes <first>-<last>/<size>`' } },
        },
      },
      errors: ['ITEM_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
      errorDetails: { ITEM_NOT_FOUND: NotFoundDetails },
      handler: async (req) => download(await recordings.find(req.params.file), recordings.dir, req.headers.range),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${API_PREFIX}/recordings/:file`,
      auth: 'required',
      operationId: 'deleteRecording',
      summary: 'Delete a recording',
      description: 'A file still being written answers 409 RECORDING_ACTIVE: disable its output first.',
      tags: ['outputs'],
      feature: 'recordings',
      schema: { params: FileParam },
      responses: {
        200: { description: 'the removed recording', schema: Type.Object({ success: Type.Literal(true), removed: RecordingSchema }) },
      },
      errors: ['ITEM_NOT_FOUND', 'RECORDING_ACTIVE'],
      errorDetails: { ITEM_NOT_FOUND: NotFoundDetails },
      handler: async (req) => ({ json: { success: true, removed: await recordings.remove(req.params.file) } }),
    }),
  ];
}
