import { parse, withStorage } from './context.js';

export async function migrate(args: string[]): Promise<void> {
  const { values } = parse('migrate', args, {}, []);
  await withStorage(values, async (storage) => {
    const { applied } = storage; // opening the storage migrated it; this reports what it did
    process.stdout.write(
      applied.length ? `applied ${applied.join(', ')}\n` : `${storage.describe}: schema is up to date\n`,
    );
  });
}
