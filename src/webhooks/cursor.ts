// The change-feed cursor that import.completed carries: where a receiver starts reading
// GET /changes/?since=… to get exactly what the import changed.
//
// Until the change feed (src/changes/) lands, the position is the project's data_version
// before the import, encoded as the feed's opaque cursor; null for a project the import
// created (read the feed from the beginning).
export function cursorBefore(dataVersion: number | undefined): string | null {
  if (dataVersion === undefined) return null;
  return Buffer.from(`v1:${dataVersion}`).toString('base64url');
}
