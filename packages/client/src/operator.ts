import type { Api } from './api.js';
import { segment } from './query.js';
import type {
  CreatedKey,
  CurrentKey,
  Key,
  KeyCreate,
  KeyRoll,
  ProjectInfo,
  RevokedKey,
  RolledKey,
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookReplay,
  WebhookRoll,
} from './records.js';

// The operator's calls: the project itself, its keys and webhooks (docs/API.md, "The project",
// "Keys over HTTP" and "Webhooks"). Like resources.ts, each helper is one api() call with typed
// input and answer. `project()` and `keys.current()` need any valid key; the rest need
// keys:manage or webhooks:manage. Not in /toolkit.js: a shop's pages hold no operator's key.

export function keyHelpers(api: Api) {
  return {
    /** The calling key: its scopes say what it may do, so that a UI can show it before trying. */
    current: () => api<CurrentKey>('/keys/current'),
    list: () => api<{ data: Key[] }>('/keys/'),
    /** The answer's `key` is the secret, shown this once. */
    create: (body: KeyCreate) => api<CreatedKey>('/keys/', { method: 'POST', body }),
    revoke: (key: number) => api<RevokedKey>(`/keys/${segment(key)}/revoke`, { method: 'POST' }),
    roll: (key: number, body: KeyRoll) => api<RolledKey>(`/keys/${segment(key)}/roll`, { method: 'POST', body }),
  };
}

export function webhookHelpers(api: Api) {
  return {
    list: () => api<{ data: WebhookEndpoint[] }>('/webhooks/'),
    /** The answer's `secret` signs every delivery, shown this once. */
    create: (body: WebhookCreate) => api<WebhookEndpointWithSecret>('/webhooks/', { method: 'POST', body }),
    deliveries: (endpoint: number) => api<{ data: WebhookDelivery[] }>(`/webhooks/${segment(endpoint)}/deliveries`),
    replay: (messageId: string) =>
      api<WebhookReplay>(`/webhooks/messages/${segment(messageId)}/replay`, { method: 'POST' }),
    enable: (endpoint: number) => api<WebhookEndpoint>(`/webhooks/${segment(endpoint)}/enable`, { method: 'POST' }),
    /** Removes the endpoint and its deliveries; answers `{ id, deleted: true }`. */
    delete: (endpoint: number) =>
      api<{ id: number; deleted: true }>(`/webhooks/${segment(endpoint)}`, { method: 'DELETE' }),
    rollSecret: (endpoint: number, body: WebhookRoll = {}) =>
      api<WebhookEndpointWithSecret>(`/webhooks/${segment(endpoint)}/roll-secret`, { method: 'POST', body }),
  };
}

export function operatorHelpers(api: Api) {
  return {
    /** The project: its id, name and currency, as an import file must name it. */
    project: () => api<ProjectInfo>('/'),
    keys: keyHelpers(api),
    webhooks: webhookHelpers(api),
  };
}
