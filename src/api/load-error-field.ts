// The `loadError` field of catalog list items: present only on a type whose file does not compile.
import Type from 'typebox';

export const LoadErrorField = Type.String({
  description:
    'present only when the file does not compile: the message with the `.fs` line (as in GET /catalog/errors); using it fails at once',
});

/** `item` with `loadError` added when `error` is set. */
export function withLoadError<T extends object>(item: T, error: string | undefined): T & { loadError?: string } {
  return error === undefined ? item : { ...item, loadError: error };
}
