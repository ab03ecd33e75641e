import { migrateToLatest } from '../db/migrate.js';
import { parse, withStorage } from './context.js';

export async function migrate(args: string[]): Promise<void> {
  const { values } = parse('migrate', args, {}, []);
  await withStorage(values, async (storage) => {
    const applied = await migrateToLatest(storage.db); // openStorage already migrated; this reports
    process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : `${storage.describe}: schema is up to date\n`);
  });
}
