import { parseCount } from './config-values.js';

// How long a streamed answer may hold its snapshot (src/export/snapshot-stream.ts), apart from
// config.ts. A slow reader of an export holds a PostgreSQL snapshot (vacuum waits) or a SQLite
// read transaction (checkpoints cannot finish) for as long as it reads.

export const DEFAULT_EXPORT_MAX_SECONDS = 900;

export interface StreamLimits {
  /** an export still being read after this many seconds is ended, incomplete (EXPORT_MAX_SECONDS, default 900) */
  exportMaxSeconds: number;
}

export function loadStreamLimits(env: NodeJS.ProcessEnv): Readonly<StreamLimits> {
  const exportMaxSeconds = parseCount('EXPORT_MAX_SECONDS', env.EXPORT_MAX_SECONDS, DEFAULT_EXPORT_MAX_SECONDS);
  return Object.freeze({ exportMaxSeconds });
}
