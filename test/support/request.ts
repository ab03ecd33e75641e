import type { FastifyInstance } from 'fastify';
import { decodedBody } from './openapi-conformance.js';

// The one way tests send a request through app.inject, and the one shape of its answer.

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** the JSON body, parsed; undefined when there is none or it is not JSON */
  body: any;
  /** the body as sent, decoded when it came gzip- or brotli-encoded */
  text: string;
  /** the bytes as sent */
  bytes: Buffer;
}

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RequestOptions {
  headers?: Record<string, string>;
  /** sent as JSON, with content-type application/json unless the headers say otherwise */
  body?: unknown;
  /** sent as it is (a Buffer for bytes that are not UTF-8 text) */
  raw?: string | Buffer;
}

/** One request through app.inject, with the JSON body parsed when there is one. */
export async function call(
  app: FastifyInstance,
  method: Method,
  url: string,
  options: RequestOptions = {},
): Promise<Answer> {
  const headers = { ...(options.headers ?? {}) };
  let payload: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app.inject({ method, url, headers, payload });
  const text = decodedBody(res);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text, bytes: res.rawPayload };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The CORS preflight a browser sends from `origin` before a POST to `url` with a key and a JSON body. */
export function preflight(app: FastifyInstance, url: string, origin = 'https://shop.example'): Promise<Answer> {
  return call(app, 'OPTIONS', url, {
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });
}

/** The ids of a list answer, in order. */
export function ids(answer: Answer): number[] {
  return (answer.body.data as Array<{ id: number }>).map((r) => r.id);
}

/** The field that the first detail of a 400 error names. */
export function fieldOf(answer: Answer): string | undefined {
  return answer.body?.error?.details?.[0]?.field;
}
