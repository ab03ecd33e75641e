import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, invalid } from '../../errors.js';
import { EmptyQuery, ProjectParams, errorResponses } from '../../http/schemas.js';
import type { TypedApp } from '../../http/typed-app.js';
import { AddressRefused, checkEndpointUrl } from '../../webhooks/address-guard.js';
import {
  DEFAULT_SECRET_OVERLAP_SECONDS,
  TooManyEndpoints,
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  hasEndpoint,
  listDeliveries,
  listEndpoints,
  replayMessage,
  rollSecret,
} from '../../webhooks/endpoints.js';
import {
  CreatedWebhookEndpoint,
  DeletedWebhookEndpoint,
  MessageParams,
  WebhookCreate,
  WebhookDeliveryList,
  WebhookEndpointList,
  WebhookParams,
  WebhookReplay,
  WebhookRoll,
} from './schemas.js';

// The project's webhook endpoints over HTTP, for a key with webhooks:manage (docs/API.md,
// "Webhooks"). Every query names the path's project, so another project's endpoint or
// message is a 404 like an unknown one. Create and roll-secret answer with a secret, so they
// refuse an Idempotency-Key (its answer would be stored).

const manage = { auth: 'key', scope: 'webhooks:manage' } as const;
const tags = ['webhooks'];
/** What the routes of one endpoint share: the endpoint's id in the path, and no query. */
const ofOneEndpoint = { tags, params: WebhookParams, querystring: EmptyQuery };
const EndpointRef = { $ref: 'WebhookEndpoint' } as const;

export async function webhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  endpointRoutes(app);
  endpointStateRoutes(app);
  deliveryRoutes(app);
}

/** Now, in unix seconds, as the webhook machinery tells it (a test may set the clock). */
function seconds(app: TypedApp): number {
  return Math.floor(app.webhooks.now() / 1000);
}

/** The endpoints themselves: list, create, delete. */
function endpointRoutes(app: TypedApp): void {
  app.get('/webhooks/', {
    config: manage,
    schema: {
      operationId: 'listWebhooks',
      summary: "List the project's webhook endpoints",
      description: 'Every endpoint, by id, enabled or not; never a secret.',
      tags,
      params: ProjectParams,
      querystring: EmptyQuery,
      response: { 200: WebhookEndpointList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => ({ data: await listEndpoints(app.storage, request.project.id, seconds(app)) }),
  });

  app.post('/webhooks/', {
    config: { ...manage, answerHoldsSecret: true },
    schema: {
      operationId: 'createWebhook',
      summary: 'Create a webhook endpoint',
      description:
        'Events of the project are POSTed to the URL, signed as Standard Webhooks says. The answer holds the signing secret, shown this once.',
      tags,
      params: ProjectParams,
      querystring: EmptyQuery,
      body: WebhookCreate,
      response: { 201: CreatedWebhookEndpoint, ...errorResponses(400, 401, 403, 404, 409, 413, 415) },
    },
    handler: async (request, reply) => {
      const { url, events } = request.body;
      try {
        await checkEndpointUrl(url, app.webhooks.allowPrivate);
      } catch (e) {
        if (e instanceof AddressRefused) throw invalid('url', e.message);
        throw e;
      }
      try {
        const made = await createEndpoint(app.storage, request.project.id, url, events, seconds(app));
        reply.code(201);
        return { ...made.info, secret: made.secret };
      } catch (e) {
        if (e instanceof TooManyEndpoints) throw new ApiError(409, e.message);
        throw e;
      }
    },
  });

  app.delete('/webhooks/:endpoint_id', {
    config: manage,
    schema: {
      operationId: 'deleteWebhook',
      summary: 'Delete a webhook endpoint',
      description: 'Nothing more is sent to it; its deliveries and their attempts are removed.',
      ...ofOneEndpoint,
      response: { 200: DeletedWebhookEndpoint, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = request.params.endpoint_id;
      if (!(await deleteEndpoint(app.storage, id, request.project.id))) throw endpointNotFound(id);
      return { id, deleted: true as const };
    },
  });
}

/** An endpoint's state: enabled again after a 410, its secret rolled. */
function endpointStateRoutes(app: TypedApp): void {
  app.post('/webhooks/:endpoint_id/enable', {
    config: manage,
    schema: {
      operationId: 'enableWebhook',
      summary: 'Enable a webhook endpoint',
      description:
        'After a receiver answered 410 the endpoint is disabled and its deliveries wait; this sends them again. Takes no body.',
      ...ofOneEndpoint,
      response: { 200: EndpointRef, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    handler: async (request) => {
      const id = request.params.endpoint_id;
      const info = await enableEndpoint(app.storage, id, seconds(app), request.project.id);
      if (!info) throw endpointNotFound(id);
      return info;
    },
  });

  app.post('/webhooks/:endpoint_id/roll-secret', {
    config: {
      ...manage,
      answerHoldsSecret: true,
      exists: (request) =>
        hasEndpoint(app.storage, (request.params as { endpoint_id: number }).endpoint_id, request.project.id),
    },
    schema: {
      operationId: 'rollWebhookSecret',
      summary: "Roll a webhook endpoint's secret",
      description:
        'A new secret; for overlap_seconds every delivery carries two signatures, by the new and the old secret, so the receiver can switch at its own pace. The answer holds the new secret, shown this once.',
      ...ofOneEndpoint,
      body: WebhookRoll,
      response: { 201: CreatedWebhookEndpoint, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    handler: async (request, reply) => {
      const id = request.params.endpoint_id;
      const rolled = await rollSecret(
        app.storage,
        id,
        request.body.overlap_seconds ?? DEFAULT_SECRET_OVERLAP_SECONDS,
        seconds(app),
        request.project.id,
      );
      if (!rolled) throw endpointNotFound(id);
      reply.code(201);
      return { ...rolled.info, secret: rolled.secret };
    },
  });
}

/** What was sent: an endpoint's deliveries, and a message sent again. */
function deliveryRoutes(app: TypedApp): void {
  app.get('/webhooks/:endpoint_id/deliveries', {
    config: manage,
    schema: {
      operationId: 'listWebhookDeliveries',
      summary: "A webhook endpoint's deliveries",
      description: 'The latest 100 deliveries, newest first, each with every attempt: time, status, duration, answer.',
      ...ofOneEndpoint,
      response: { 200: WebhookDeliveryList, ...errorResponses(400, 401, 403, 404) },
    },
    handler: async (request) => {
      const id = request.params.endpoint_id;
      const data = await listDeliveries(app.storage, id, request.project.id);
      if (!data) throw endpointNotFound(id);
      return { data };
    },
  });

  app.post('/webhooks/messages/:message_id/replay', {
    config: manage,
    schema: {
      operationId: 'replayWebhookMessage',
      summary: 'Send a message again',
      description:
        'Every endpoint the message was for gets it again (same webhook-id), with a fresh retry schedule; succeeded and failed deliveries alike. Takes no body.',
      tags,
      params: MessageParams,
      querystring: EmptyQuery,
      response: { 200: WebhookReplay, ...errorResponses(400, 401, 403, 404, 413, 415) },
    },
    handler: async (request) => {
      const { message_id: messageId } = request.params;
      const endpoints = await replayMessage(app.storage, messageId, app.webhooks.now(), request.project.id);
      if (!endpoints) throw new ApiError(404, `message ${messageId} not found (or no longer kept)`);
      return { message_id: messageId, endpoints };
    },
  });
}

/** The 404 of an endpoint id that names none of the project's endpoints. */
function endpointNotFound(id: number): ApiError {
  return new ApiError(404, `webhook endpoint ${id} not found`);
}
