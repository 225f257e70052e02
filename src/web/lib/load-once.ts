/**
 * `load` called once and its result kept, for code fetched on demand: a failure (a dropped link) is not kept, so the
 * next call fetches again.
 */
export function loadOnce<T>(load: () => Promise<T>) {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
