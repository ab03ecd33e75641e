// The largest request bodies read as JSON (docs/API.md, "Conventions"): a server-wide limit,
// and a larger one for the products batch update, whose 1,000 items need more. Import
// uploads stream to disk and have their own (IMPORT_MAX_BYTES).

export const BODY_LIMIT = 64 * 1024;
/** PATCH …/products/: 1,000 items at their longest (a 128-character name of escaped characters, an ETag). */
export const BATCH_BODY_LIMIT = 1024 * 1024;
