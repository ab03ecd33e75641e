import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { BackupConfig } from '../config-backups.js';
import { backupDatabase, isPartialName } from '../db/backups.js';

// `serve`'s own backups (CONTRACT 20): every BACKUP_EVERY a backup of the whole database into
// BACKUP_DIR, named by its UTC time so that names sort by age, and the BACKUP_KEEP newest kept.
// A backup is written under a temporary name and renamed when complete (src/db/backup-files.ts);
// temporary files left by a process killed mid-backup are removed at start. One process of a
// deployment sets BACKUP_DIR (docs/DEPLOY.md): two would each back up the same database.

export interface BackupState {
  /** unix seconds and bytes of the newest finished backup (this process's, or found in the folder) */
  lastAt?: number;
  lastBytes?: number;
  lastFile?: string;
  /** why the last attempt failed; undefined after a success */
  failure?: string;
  everySeconds: number;
}

const NAME = /^storefront-\d{8}T\d{6}Z\.(db|pgdump)$/;

export class BackupSchedule {
  readonly state: BackupState;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private log?: FastifyBaseLogger;

  constructor(
    private readonly databaseUrl: string,
    private readonly config: BackupConfig & { dir: string },
  ) {
    mkdirSync(config.dir, { recursive: true });
    for (const name of readdirSync(config.dir))
      if (isPartialName(name)) rmSync(join(config.dir, name), { force: true });
    this.state = { everySeconds: config.everySeconds, ...this.newestFound() };
  }

  /** Backs up when the newest backup is BACKUP_EVERY old (at once if there is none), then every BACKUP_EVERY. */
  start(log: FastifyBaseLogger): void {
    this.log = log;
    const age = this.state.lastAt === undefined ? Infinity : Date.now() / 1000 - this.state.lastAt;
    this.schedule(Math.max(0, this.config.everySeconds - age) * 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One backup now, then pruning to BACKUP_KEEP. */
  async runOnce(): Promise<void> {
    const stamp = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const file = join(
      this.config.dir,
      `storefront-${stamp}.${this.databaseUrl.startsWith('sqlite:') ? 'db' : 'pgdump'}`,
    );
    const started = Date.now();
    try {
      await backupDatabase(this.databaseUrl, file);
      const bytes = statSync(file).size;
      Object.assign(this.state, { lastAt: Math.floor(Date.now() / 1000), lastBytes: bytes, lastFile: file });
      this.state.failure = undefined;
      this.log?.info({ file, bytes, ms: Date.now() - started }, 'backup written');
      this.prune();
    } catch (err) {
      this.state.failure = (err as Error).message;
      this.log?.error({ err: { message: this.state.failure } }, 'backup failed');
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce().finally(() => this.schedule(this.config.everySeconds * 1000));
    }, ms);
    this.timer.unref();
  }

  private finished(): string[] {
    return readdirSync(this.config.dir)
      .filter((n) => NAME.test(n))
      .sort();
  }

  private newestFound(): Partial<BackupState> {
    const newest = this.finished().at(-1);
    if (!newest) return {};
    const file = join(this.config.dir, newest);
    const stat = statSync(file);
    return { lastAt: Math.floor(stat.mtimeMs / 1000), lastBytes: stat.size, lastFile: file };
  }

  private prune(): void {
    const names = this.finished();
    for (const name of names.slice(0, Math.max(0, names.length - this.config.keep)))
      rmSync(join(this.config.dir, name), { force: true });
  }
}

/** What /readyz says of the backups: nothing without BACKUP_DIR; a warning when failed or late. */
export function backupReport(state: BackupState, now = Date.now() / 1000): { backup: object; warning?: string } {
  const backup = {
    last_at: state.lastAt ?? null,
    last_bytes: state.lastBytes ?? null,
    ...(state.failure ? { failure: state.failure } : {}),
  };
  if (state.failure) return { backup, warning: `the last backup failed: ${state.failure}` };
  if (state.lastAt === undefined || now - state.lastAt > 2 * state.everySeconds)
    return { backup, warning: `no backup in the last ${2 * state.everySeconds} s (twice BACKUP_EVERY)` };
  return { backup };
}
