// The server's name matching rules (case-insensitive; space, underscore and hyphen equivalent; trimmed), used by
// the search fields so they find what a select by name would.
export const norm = (s: string): string =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
export const matches = (name: string, query: string): boolean => norm(name).includes(norm(query));
