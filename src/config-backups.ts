import { ConfigError, parseDuration } from './config-values.js';

// The settings of `serve`'s own backups (src/backups/schedule.ts; docs/DEPLOY.md, "Backups"),
// kept apart from config.ts. Without BACKUP_DIR a server makes none.

export interface BackupConfig {
  /** where backups go (BACKUP_DIR); unset: no scheduled backups */
  dir?: string;
  /** seconds between two backups (BACKUP_EVERY: `30m`, `1h`, `1d`; default 1h) */
  everySeconds: number;
  /** how many finished backups are kept, the newest (BACKUP_KEEP, default 24) */
  keep: number;
}

export function loadBackupConfig(env: NodeJS.ProcessEnv): Readonly<BackupConfig> {
  const every = env.BACKUP_EVERY || '1h';
  const everySeconds = parseDuration(every);
  if (everySeconds === undefined || everySeconds < 1)
    throw new ConfigError(`BACKUP_EVERY must be a number with s, m, h or d (e.g. 1h), got "${every}"`);
  const keepText = env.BACKUP_KEEP || '24';
  if (!/^[1-9][0-9]{0,5}$/.test(keepText))
    throw new ConfigError(`BACKUP_KEEP must be a whole number from 1, got "${keepText}"`);
  return Object.freeze({ dir: env.BACKUP_DIR || undefined, everySeconds, keep: Number(keepText) });
}
