import { randomBytes } from 'node:crypto';

// The events of docs/API.md, "Webhooks". The body follows the Standard Webhooks specification:
// `{ "type", "timestamp", "data" }`, timestamp in ISO 8601 (when the change was committed).

export const EVENT_TYPES = [
  'product.updated',
  'product.deleted',
  'order.updated',
  'order.deleted',
  'category.changed',
  'plan.changed',
  'user.changed',
  'import.completed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface WebhookEvent {
  type: EventType;
  data: unknown;
}

export function isEventType(name: string): name is EventType {
  return (EVENT_TYPES as readonly string[]).includes(name);
}

/** The body as sent (and signed): built once, when the change commits, and never again. */
export function eventBody(event: WebhookEvent, nowMs: number): string {
  return JSON.stringify({ type: event.type, timestamp: new Date(nowMs).toISOString(), data: event.data });
}

/** `msg_` and 22 url-safe characters: the webhook-id a receiver deduplicates by. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** An endpoint's filter as stored: space-separated types, empty for every type. */
export function eventsText(types: readonly EventType[] | undefined): string {
  return types ? EVENT_TYPES.filter((t) => types.includes(t)).join(' ') : '';
}

export function eventsOf(text: string): EventType[] {
  return text === '' ? [] : text.split(' ').filter(isEventType);
}

export function wants(filter: string, type: EventType): boolean {
  return filter === '' || filter.split(' ').includes(type);
}
