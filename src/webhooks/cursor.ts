import { encodeCursor } from '../changes/cursor.js';

// The change-feed cursor that import.completed carries: GET /changes/?since=<cursor> then
// returns exactly what the import (and anything committed after it) changed. Everything up
// to the project's data_version before the import was committed before it; 0 for a project
// the import created.
export function cursorBefore(dataVersion: number | undefined): string {
  return encodeCursor(dataVersion ?? 0);
}
