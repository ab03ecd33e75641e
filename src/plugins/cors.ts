import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Shops call the public part straight from browser pages of any origin (docs/API.md, "HTTP
// behaviour"): every answer allows any origin, and browser code may read the ETag, the
// rate-limit headers, the request id and WWW-Authenticate. No cookies are used, so none are allowed.

export default fp(
  async function corsPolicy(app: FastifyInstance) {
    await app.register(cors, {
      origin: '*',
      methods: ['GET', 'HEAD', 'POST'],
      allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match', 'If-Match', 'Idempotency-Key', 'X-Request-Id'],
      exposedHeaders: [
        'ETag',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Retry-After',
        'X-Request-Id',
        'Idempotent-Replayed',
        // so that browser code can read why a 401 came (it says Bearer)
        'WWW-Authenticate',
      ],
      maxAge: 86400,
      strictPreflight: false,
    });
  },
  { name: 'cors' },
);
