import { readFile, rename, writeFile } from 'node:fs/promises';
import type { Client } from './index.js';
import type { ChangeType } from './records.js';
import type { Mirror, MirrorKey, SyncOptions, SyncResult } from './sync.js';

// `storefront-client/sync-file`: client.sync() with the mirror and its cursor kept in one
// JSON file, for builds that run now and then. A separate entry because it needs node:fs.

interface MirrorFile {
  version: 1;
  types: ChangeType[] | null;
  fetchHidden: boolean;
  cursor: string;
  records: Record<MirrorKey, unknown>;
}

/**
 * Brings the mirror in `path` up to date (made on the first call) and answers what changed,
 * with the mirror itself. The file is replaced whole once the sync succeeded, never half
 * written; a file made with other `types` or `fetchHidden` is started over.
 */
export async function syncFile(
  client: Pick<Client, 'sync'>,
  path: string,
  options: Omit<SyncOptions, 'since'> = {},
): Promise<SyncResult & { mirror: Mirror }> {
  const types = options.types ? [...options.types] : null;
  const fetchHidden = options.fetchHidden === true;
  const stored = await read(path);
  const usable = stored && JSON.stringify(stored.types) === JSON.stringify(types) && stored.fetchHidden === fetchHidden;
  const mirror: Mirror = new Map(usable ? (Object.entries(stored.records) as [MirrorKey, never][]) : []);
  const result = await client.sync(mirror, { ...options, since: usable ? stored.cursor : undefined });
  const file: MirrorFile = {
    version: 1,
    types,
    fetchHidden,
    cursor: result.cursor,
    records: Object.fromEntries(mirror),
  };
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(file));
  await rename(temp, path);
  return { ...result, mirror };
}

async function read(path: string): Promise<MirrorFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let file: Partial<MirrorFile> | null = null;
  try {
    file = JSON.parse(text) as Partial<MirrorFile> | null;
  } catch {
    // reported below
  }
  if (
    !file ||
    file.version !== 1 ||
    typeof file.cursor !== 'string' ||
    typeof file.records !== 'object' ||
    !file.records
  ) {
    throw new Error(`${path} is not a mirror written by syncFile(); delete it to start over`);
  }
  return file as MirrorFile;
}
