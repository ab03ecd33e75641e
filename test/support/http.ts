import type { FastifyInstance } from 'fastify';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: any;
  text: string;
}

/** One request through app.inject, with the JSON body parsed when there is one. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS',
  url: string,
  options: { headers?: Record<string, string>; body?: unknown; raw?: string } = {},
): Promise<Answer> {
  const headers = { ...(options.headers ?? {}) };
  let payload: string | undefined = options.raw;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await app.inject({ method, url, headers, payload });
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body, text: res.body };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
