import { type Static, Type } from 'typebox';
import { NullableTimestamp, PathId, ProjectId, Timestamp } from '../../http/schemas.js';
import { DEFAULT_SECRET_OVERLAP_SECONDS, MAX_SECRET_OVERLAP_SECONDS } from '../../webhooks/endpoints.js';
import { EVENT_TYPES } from '../../webhooks/events.js';

// The HTTP webhook API (docs/API.md, "Webhooks"). An endpoint's secret appears in the answers
// of create and roll-secret only, once.

export const EventTypeName = Type.Enum(EVENT_TYPES);

const endpointFields = {
  id: Type.Integer({ minimum: 1, description: 'the endpoint id' }),
  url: Type.String({ description: 'where the events are POSTed' }),
  events: Type.Union([Type.Array(EventTypeName), Type.Null()], {
    description: 'the event types sent; null: every type',
  }),
  created_at: Timestamp,
  disabled_at: Type.Union([Timestamp, Type.Null()], {
    description: 'set when the receiver answered 410; deliveries wait until the endpoint is enabled',
  }),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  previous_secret_until: Type.Union([Timestamp, Type.Null()], {
    description: 'during a secret roll: until when the previous secret also signs; null otherwise',
  }),
};

export const WebhookEndpoint = Type.Object(endpointFields, {
  $id: 'WebhookEndpoint',
  description: 'A webhook endpoint, without its secret.',
});

export const WebhookEndpointList = Type.Object({
  data: Type.Array(Type.Ref('WebhookEndpoint'), { description: "the project's endpoints, by id" }),
});

const secret = Type.String({
  description: 'whsec_ and the base64 key: verifies the signatures (Standard Webhooks); shown this once',
});

export const CreatedWebhookEndpoint = Type.Object({ ...endpointFields, secret });

export const WebhookCreate = Type.Object(
  {
    url: Type.String({
      maxLength: 2000,
      format: 'uri',
      // What checkEndpointUrl (src/webhooks/address-guard.ts) accepts as syntax: an absolute
      // http(s) URL without user name, password or #fragment.
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9.:\\[\\]_~-]+([/?][^#\\s]*)?$',
      description:
        'an absolute https:// (or http://) URL, without user name, password or #fragment; its host must resolve, and to a public address (loopback, private and link-local ones are refused with 400 unless the server sets WEBHOOK_ALLOW_PRIVATE=1)',
    }),
    events: Type.Optional(
      Type.Array(EventTypeName, {
        minItems: 1,
        uniqueItems: true,
        description: 'the event types to send (default: every type)',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://example.com/hooks/storefront', events: ['product.updated', 'import.completed'] }],
  },
);

export const WebhookRoll = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_SECRET_OVERLAP_SECONDS,
        default: DEFAULT_SECRET_OVERLAP_SECONDS,
        description: `how long the old secret also signs (default ${DEFAULT_SECRET_OVERLAP_SECONDS}: 24 hours; 0: it stops at once)`,
      }),
    ),
  },
  { additionalProperties: false, examples: [{ overlap_seconds: 86400 }] },
);

export const DeletedWebhookEndpoint = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  deleted: Type.Literal(true),
});

const Attempt = Type.Object({
  attempted_at: Timestamp,
  status: Type.Union([Type.Integer(), Type.Null()], { description: "the receiver's HTTP status; null: no answer" }),
  duration_ms: Type.Integer(),
  response: Type.String({ description: 'the first 1 KiB of the answer' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why there was no answer (refused, timed out)' }),
});

export const WebhookDeliveryList = Type.Object({
  data: Type.Array(
    Type.Object({
      message_id: Type.String({ description: 'the webhook-id header' }),
      type: EventTypeName,
      status: Type.Enum(['pending', 'succeeded', 'failed']),
      attempts: Type.Array(Attempt, { description: 'every attempt, oldest first' }),
      created_at: Timestamp,
      next_attempt_at: NullableTimestamp,
      finished_at: NullableTimestamp,
    }),
    { description: 'the latest 100 deliveries, newest first' },
  ),
});

export const WebhookReplay = Type.Object({
  message_id: Type.String(),
  endpoints: Type.Array(
    Type.Object({
      endpoint_id: Type.Integer({ minimum: 1 }),
      disabled: Type.Boolean({ description: 'true: the delivery waits until the endpoint is enabled' }),
    }),
  ),
});

export const WebhookParams = Type.Object({ project_id: ProjectId, endpoint_id: PathId('webhook endpoint') });
export const MessageParams = Type.Object({
  project_id: ProjectId,
  // No pattern: an id of another shape names no message, a 404 from the handler.
  message_id: Type.String({
    maxLength: 100,
    description: 'a message id (the webhook-id header of its deliveries)',
    examples: ['msg_2Nq3xR0l8vJ0c9dYzQ1wKg'],
  }),
});

export type WebhookCreate = Static<typeof WebhookCreate>;
