// `storefront-api/client`: the client, which lives in its own package (packages/client,
// `storefront-client`, installable without the server), re-exported so that existing imports
// keep working.
export * from 'storefront-client';
