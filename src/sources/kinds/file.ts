// Media files: the media library's videos (looping) and stills, read by an ingest reader. A saved one comes back
// once the library's first scan has found it.
import { mediaFolders } from '../../browse/folders.js';
import type { SourceKindDescriptor } from './types.js';

export const fileKind: SourceKindDescriptor<'file'> = {
  kind: 'file',
  entries: (from) =>
    from.media.files.map((f) => ({
      id: f.id,
      name: f.name,
      sourceKind: 'file',
      type: f.type,
      spec: { kind: 'reader', input: { kind: 'file', path: f.path, still: f.type === 'image' }, live: false },
    })),
  folder: { slug: 'files', name: 'Media Files' },
  browse: (from) => mediaFolders(from.media),
  thumbnail: 'media',
  restore: 'scan',
  selectedBy: ['source', 'file'],
  notAGenerator: 'a media file',
};
