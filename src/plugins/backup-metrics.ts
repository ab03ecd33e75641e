import { Gauge, type Registry } from 'prom-client';
import type { BackupState } from '../backups/schedule.js';

// serve's own backups in /metrics (CONTRACT 20), read from the schedule's state when scraped:
// alert on `time() - storefront_backup_last_success_timestamp_seconds` growing past twice
// BACKUP_EVERY, or on storefront_backup_last_failed.

export function backupMetrics(registry: Registry, state: BackupState): void {
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  gauge(
    'storefront_backup_last_success_timestamp_seconds',
    'When the newest finished backup was made',
    () => state.lastAt,
  );
  gauge('storefront_backup_last_size_bytes', 'The size of the newest finished backup', () => state.lastBytes);
  gauge('storefront_backup_last_failed', 'Whether the last backup attempt failed (1) or succeeded (0)', () =>
    state.failure ? 1 : 0,
  );
}
