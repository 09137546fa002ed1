// Browse: the /browse tree as a virtualised list with lazy thumbnails and a name search; click cues an item on the
// preview bus, double-click (or Enter) takes it to program with the default transition (the take bar, take.tsx).
// A row pointed at or reached by the keys has its reader opened ahead (browse-warm.ts).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { call, problem } from '../api';
import type { Got } from '../api-shapes';
import { changed } from '../live';
import { matches } from '../names';
import { live, notify, useLive } from '../store';
import { thumb } from '../thumbs';
import { take as takeCued } from './take';
import { VirtualList } from './vlist';
import { warmAhead } from './browse-warm';

/** A double-click's clicks come within this of each other. */
const CUE_SHARED_MS = 1000;

/** A folder or an item of the tree, as GET /browse lists it; only folders have a `browsePath`. */
type Node = Got<'/browse'>['items'][number];
type Folder = Extract<Node, { browsePath: string }>;
const isFolder = (n: Node): n is Folder => 'browsePath' in n;

const LIST_PX = 392;

function Thumb(props: { url: string }) {
  const etag = useLive((s) => s.thumbs[props.url]);
  const [src, setSrc] = useState('');
  useEffect(() => {
    let alive = true;
    void thumb(props.url, etag, () => alive).then((s) => alive && setSrc(s));
    return () => {
      alive = false;
    };
  }, [props.url, etag]);
  return src === '' ? <span class="thumb" aria-hidden="true" /> : <img class="thumb" src={src} alt="" />;
}

function flatten(nodes: Node[], out: Node[] = []): Node[] {
  for (const n of nodes) {
    if (isFolder(n)) flatten(n.children ?? [], out);
    else out.push(n);
  }
  return out;
}

export function BrowsePanel() {
  const libraryVersion = useLive((s) => s.libraryVersion);
  const mix = useLive((s) => s.mix);
  const source = useLive((s) => s.source);
  const [path, setPath] = useState('/');
  const [parent, setParent] = useState<string | null>(null);
  const [items, setItems] = useState<Node[]>([]);
  const [deep, setDeep] = useState<Node[] | null>(null);
  const [query, setQuery] = useState('');
  const cueing = useRef<{ id: string; done: Promise<boolean>; at: number } | null>(null);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    let alive = true;
    void call('GET', '/browse', { query: { path } }).then((r) => {
      if (!alive) return;
      if (r.ok) {
        setItems(r.body.items);
        setParent(r.body.parentPath);
      } else if (r.status === 404 && path !== '/') setPath('/');
      else notify(problem(r));
    });
    setDeep(null);
    return () => {
      alive = false;
    };
  }, [path, libraryVersion]);

  useEffect(() => {
    // Search reaches every item below the folder shown (up to the deepest level the route lists).
    if (query.trim() === '' || deep !== null) return;
    void call('GET', '/browse', { query: { path, depth: '3' } }).then((r) => r.ok && setDeep(flatten(r.body.items)));
  }, [query, path, deep]);

  const shown = useMemo(() => (query.trim() === '' ? items : (deep ?? []).filter((n) => matches(n.name, query))), [items, deep, query]);
  useEffect(() => setActive(shown.length > 0 ? 0 : -1), [shown]);
  const listRef = useRef<HTMLDivElement>(null);
  // The keyboard's row is the likely next take, as the pointer's is.
  const focused = active >= 0 ? shown[active] : undefined;
  useEffect(() => {
    if (focused && listRef.current?.contains(document.activeElement)) warmAhead(focused.id, focused.kind);
  }, [focused]);

  const programId = mix?.program?.id ?? source?.id;
  const previewId = mix?.preview?.id;

  /** Cues an item once: a double-click's two clicks and its take share one cue (the preview's push may come later). */
  const cueOnce = (id: string): Promise<boolean> => {
    const p = cueing.current;
    if (p && p.id === id && Date.now() - p.at < CUE_SHARED_MS) return p.done;
    if (id === live().mix?.preview?.id) return Promise.resolve(true);
    const done = call('POST', '/mix/cue', { body: { id } }).then((r) => {
      if (!r.ok) notify(problem(r));
      return r.ok;
    });
    cueing.current = { id, done, at: Date.now() };
    return done;
  };
  const cue = async (n: Node): Promise<void> => {
    await cueOnce(n.id);
    changed();
  };
  /** Cues the item unless it is already on preview (double-click, Enter), then takes it. */
  const take = async (n: Node): Promise<void> => {
    if (await cueOnce(n.id)) await takeCued();
  };
  const open = (n: Node): void => {
    if (isFolder(n)) {
      setQuery('');
      setPath(n.browsePath);
    }
  };

  return (
    <section class="panel" aria-labelledby="browse-h">
      <h2 id="browse-h">Browse</h2>
      <div class="row">
        <button type="button" disabled={parent === null} onClick={() => parent !== null && setPath(parent)} aria-label="Up one folder">
          ↑
        </button>
        <span class="path grow" data-testid="browse-path">
          {path}
        </span>
      </div>
      <label class="field">
        <span>Search</span>
        <input
          type="search"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
          placeholder="name"
          data-testid="browse-search"
        />
      </label>
      <div ref={listRef}>
        <VirtualList<Node>
          items={shown}
          label="Items in this folder"
          height={LIST_PX}
          active={active}
          setActive={setActive}
          testid="browse-list"
          rowId={(i) => `browse-row-${i}`}
          onKey={(e, n) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (n.kind === 'folder') open(n);
              else void take(n);
            } else if (e.key === ' ') {
              e.preventDefault();
              if (n.kind === 'folder') open(n);
              else void cue(n);
            } else if (e.key === 'Backspace' && parent !== null) {
              e.preventDefault();
              setPath(parent);
            }
          }}
          row={(n, i) => (
            // biome-ignore lint/a11y/noStaticElementInteractions: the row sits in an option of the listbox, whose keys (arrows, Enter, Backspace) do the same
            // biome-ignore lint/a11y/useKeyWithClickEvents: as above: the listbox handles the keys for the active option
            <div
              class={`item${n.id === programId ? ' onair' : ''}${n.id === previewId ? ' cued' : ''}`}
              data-name={n.name}
              onPointerEnter={() => warmAhead(n.id, n.kind)}
              onClick={() => {
                setActive(i);
                if (n.kind === 'folder') open(n);
                else void cue(n);
              }}
              onDblClick={() => n.kind !== 'folder' && void take(n)}
            >
              {isFolder(n) ? (
                <span class="thumb folder" aria-hidden="true">
                  ▸
                </span>
              ) : n.thumbnailUrl ? (
                <Thumb url={n.thumbnailUrl} />
              ) : (
                <span class="thumb" />
              )}
              <span class="name">{n.name}</span>
              <span class="meta">
                {isFolder(n) ? `${n.childCount ?? 0}` : n.id === programId ? 'program' : n.id === previewId ? 'preview' : ''}
              </span>
            </div>
          )}
        />
      </div>
      <p class="hint">Click or Space: cue · Double-click or Enter: take</p>
    </section>
  );
}
