// The prose of the document: what a reader of /docs needs that no route schema can say.

export const API_DESCRIPTION = `JSON over HTTP for one project's subscription plans, users, products, categories and orders.
Every path begins with \`/v2/projects/{project_id}\`.

- **Authentication**: protected operations need a project's API key as \`Authorization: Bearer <key>\`; a missing or bad key is \`401\` before any other check, and a key without the scope the operation names (its security requirement) is \`403\` right after.
- **Errors**: every error is \`{ "error": { "status", "code", "message", "details"? } }\`; \`details\` names each bad field or parameter.
- **Validation**: unknown query parameters or body fields, a parameter given twice, or a wrong type or range are \`400\`.
- **Methods**: \`HEAD\` works wherever \`GET\` does; any other method a path does not serve is \`405 method_not_allowed\` with an \`Allow\` header.
- **Caching**: \`GET\` answers carry an \`ETag\`; send it as \`If-None-Match\` to get an empty \`304\`.
- **CORS**: every origin may call the API (\`Access-Control-Allow-Origin: *\`); no cookies are used.
- Paths with and without a trailing slash are the same resource.`;

export const TAGS = [
  { name: 'projects', description: 'The project itself: id, name and currency. Any valid key of the project.' },
  {
    name: 'admin',
    description:
      "A deployment's projects: create (with a first key), list with their record counts, delete. An admin key required.",
  },
  { name: 'plans', description: 'Subscription plans and their prices. Public.' },
  { name: 'users', description: "The project's registered users. API key required." },
  { name: 'products', description: 'Products, public unless hidden ones are asked for with fetch_hidden=true.' },
  { name: 'categories', description: 'Categories as a tree. Public.' },
  { name: 'orders', description: 'Orders and their statuses. API key required.' },
  {
    name: 'changes',
    description:
      'The change feed: every record written, hidden or deleted since a cursor, in commit order. Public for products, categories and plans.',
  },
  { name: 'keys', description: "The project's API keys: list, create, revoke, roll. A key with keys:manage required." },
  {
    name: 'webhooks',
    description:
      "The project's webhook endpoints, their deliveries, replays and secret rolls. A key with webhooks:manage required.",
  },
  {
    name: 'imports',
    description:
      'Imports over HTTP as jobs: upload a file (JSON or NDJSON), follow it, cancel it; all or nothing. A key with imports:write required.',
  },
  {
    name: 'exports',
    description:
      "Streamed exports read from one snapshot: products and orders as CSV (the lists' filters and order, every match), the whole project as NDJSON in the import format.",
  },
];

// The first entry is relative: the server that served the document (what /docs calls). The
// second is `npm start` on one's own machine, for tools that need an absolute address.
export const SERVERS = [
  { url: '/', description: 'the server that serves this document' },
  { url: 'http://127.0.0.1:3000', description: 'a local `npm start` (PORT=3000)' },
];
