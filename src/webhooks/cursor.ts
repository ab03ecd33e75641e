// The change-feed cursor that import.completed carries: GET /changes/?since=<cursor> then
// returns exactly what the import (and anything committed after it) changed.
//
// The feed's cursor is base64url of the project's data_version up to which everything was
// read (src/changes/cursor.ts on the change-feed branch, `encodeCursor(seq)`); before the
// import that is the version the import found, or 0 for a project it created.
export function cursorBefore(dataVersion: number | undefined): string {
  return Buffer.from(String(dataVersion ?? 0)).toString('base64url');
}
