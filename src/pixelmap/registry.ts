// The fixture list as state (state.json's `pixelmap`): add, edit and remove, each checked as a whole patch before
// it changes anything, so a refused request leaves the list as it was. Refusals name the request's field.
import { ApiError, notFound } from '../errors.js';
import { matchName } from '../shared/names.js';
import type { StateStore } from '../state/store.js';
import type { PixelTest } from '../shared/pixelmap/colour.js';
import { patchProblem } from '../shared/pixelmap/patch.js';
import { EMPTY_PIXELMAP, type PixelmapSaved } from './saved.js';
import type { Fixture } from '../shared/pixelmap/types.js';

export type FixtureFields = Omit<Fixture, 'id'>;

/** A URL-safe id from the name, numbered on when taken (as cue ids are). */
function idOf(name: string, all: readonly Fixture[]): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'fixture';
  let id = base;
  for (let n = 2; all.some((f) => f.id === id); n++) id = `${base}-${n}`;
  return id;
}

export class FixtureRegistry {
  constructor(
    private readonly state: StateStore,
    /** config pixelmap.destinations */
    private readonly destinations: readonly string[],
  ) {}

  get saved(): Readonly<PixelmapSaved> {
    return this.state.peek().pixelmap ?? EMPTY_PIXELMAP;
  }

  get fixtures(): readonly Fixture[] {
    return this.saved.fixtures;
  }

  /** A fixture by id, then by flexible name, or 404 naming the ids there are. */
  find(q: string): Fixture {
    const all = this.fixtures;
    const hit = all.find((f) => f.id === q) ?? matchName(all, q, [(f) => f.id, (f) => f.name]);
    if (!hit)
      throw notFound(
        'fixture',
        q,
        all.map((f) => f.id),
      );
    return hit;
  }

  add(fields: FixtureFields): Fixture {
    const fixture: Fixture = { id: idOf(fields.name, this.fixtures), ...fields };
    const next = [...this.fixtures, fixture];
    this.check(next, next.length - 1);
    this.write({ fixtures: next });
    return fixture;
  }

  edit(q: string, change: Partial<FixtureFields>): Fixture {
    const cur = this.find(q);
    const at = this.fixtures.indexOf(cur);
    const fixture: Fixture = { ...cur, ...change, id: cur.id };
    const next = this.fixtures.map((f, i) => (i === at ? fixture : f));
    this.check(next, at);
    this.write({ fixtures: next });
    return fixture;
  }

  remove(q: string): Fixture {
    const cur = this.find(q);
    this.write({ fixtures: this.fixtures.filter((f) => f !== cur) });
    return cur;
  }

  setTest(test: PixelTest): void {
    this.write({ test });
  }

  private write(change: Partial<PixelmapSaved>): void {
    this.state.update((s) => {
      s.pixelmap = { ...(s.pixelmap ?? EMPTY_PIXELMAP), ...change };
    });
  }

  /**
   * The patch's first problem as a 400: about the fixture in the request, it names the request's field
   * (`universe 40000 is outside …`); about another one (an edit moved this one onto it), the list's
   * (`fixtures[2].address …`); about the whole patch, `fixtures: …`.
   */
  private check(next: readonly Fixture[], changed: number): void {
    const p = patchProblem(next, this.destinations, (i) => i === changed);
    if (!p) return;
    const m = /^fixtures\[(\d+)\](?:\.(.+))?$/.exec(p.field);
    if (!m) throw new ApiError('INVALID_REQUEST', `${p.field}: ${p.message}`);
    const head = `fixtures[${m[1]}]`;
    const tail = p.message.startsWith(p.field)
      ? p.message.slice(p.field.length)
      : p.message.startsWith(head)
        ? p.message.slice(head.length)
        : `: ${p.message}`;
    const field = Number(m[1]) === changed && m[2] ? m[2] : p.field;
    // A message about the fixture itself (`address ("c") channels …`) reads better as `address: fixture ("c") …`.
    throw new ApiError('INVALID_REQUEST', `${field}${tail.startsWith(' (') ? `: fixture${tail}` : tail}`);
  }
}
