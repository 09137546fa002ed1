// Flexible name matching (docs/api.md, "Name matching"): case-insensitive, space/underscore/hyphen
// equivalent, surrounding whitespace ignored. Used by the main thread and the render worker alike.

/** The comparison key of a name: trimmed, lower-case, every run of space/underscore/hyphen one space. */
export function nameKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/**
 * The first item whose key matches `query`, trying each key function in order over all items
 * (so a display-name match anywhere beats a type match earlier in the list). Items keep their order,
 * so on a tie the first one wins.
 */
export function matchName<T>(items: readonly T[], query: string, keys: ReadonlyArray<(item: T) => string | undefined>): T | undefined {
  const wanted = nameKey(query);
  if (wanted === '') return undefined;
  for (const key of keys) {
    for (const item of items) {
      const k = key(item);
      if (k !== undefined && nameKey(k) === wanted) return item;
    }
  }
  return undefined;
}

/** Index variant of matchName (-1 when nothing matches). */
export function matchNameIndex<T>(items: readonly T[], query: string, keys: ReadonlyArray<(item: T) => string | undefined>): number {
  const hit = matchName(items, query, keys);
  return hit === undefined ? -1 : items.indexOf(hit);
}
