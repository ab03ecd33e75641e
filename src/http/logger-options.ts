import type { FastifyServerOptions } from 'fastify';

// pino JSON logs. Credentials never reach a log: the Authorization header (and the
// Idempotency-Key, which a client may derive from secrets) are censored wherever a
// serializer or a log call might include request headers.

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  'request.headers.authorization',
  'headers.authorization',
  'authorization',
  'req.headers.cookie',
];

/** The logger options of the app: a level, or a full pino config from the caller, always redacted. */
export function loggerOptions(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : (logger as Record<string, unknown>);
  return { ...base, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}
