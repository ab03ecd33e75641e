// The package's server entry, for embedding the API in another Node program:
//   const storage = connect(url); await migrateToLatest(storage.db);
//   const app = await buildApp({ storage }); await app.listen({ port: 3000 });
// The client toolkit is a separate entry: `storefront-api/client`.
export { buildApp, type AppOptions } from './app.js';
export { loadConfig, type Config } from './config.js';
export { connect, type Storage } from './db/connect.js';
export { migrateToLatest } from './db/migrate.js';
export { importDocument, importFile, ImportError } from './import/import.js';
export { exportProject } from './export/export.js';
export { createKey, listKeys, revokeKey } from './keys/repository.js';
