import { createApi } from './api.js';
import { queryString, segment } from './query.js';
import type { CreatedProject, ProjectCreate, ProjectList } from './records.js';
import type { RetryOptions } from './retry.js';

// The admin API (docs/API.md, "Admin API"): a deployment's projects created, listed and
// deleted with an admin key (sfa_…). Apart from createClient: an admin key is no project's,
// and a shop's code never holds one.

export interface AdminClientOptions extends RetryOptions {
  /** where the service lives, e.g. `https://api.example.com` (a path prefix is kept) */
  baseUrl: string;
  /** sent as `Authorization: Bearer <adminKey>` */
  adminKey: string;
  /** another fetch (a test double, or one with a proxy agent); the global one by default */
  fetch?: typeof fetch;
}

export function createAdminClient(options: AdminClientOptions) {
  if (!options.baseUrl) throw new TypeError('storefront: baseUrl is required, e.g. https://api.example.com');
  const root = `${options.baseUrl.replace(/\/+$/, '')}/v2/projects`;
  const api = createApi({ ...options, projectId: '', apiKey: options.adminKey }, root);
  return {
    /** A new project; the answer's `key.key` is its first key (every scope), shown this once. */
    create: (body: ProjectCreate) => api<CreatedProject>('/', { method: 'POST', body }),
    /** The projects by id, paged, each with its record counts. */
    list: (query?: { page?: number; perpage?: number }) => api<ProjectList>(`/${queryString(query)}`),
    /** Removes the project and everything in it (the API's Confirm-Delete names it again). */
    delete: (projectId: string) =>
      api<undefined>(`/${segment(projectId)}`, { method: 'DELETE', headers: { 'confirm-delete': projectId } }),
  };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
