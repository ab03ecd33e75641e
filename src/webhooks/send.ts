import http from 'node:http';
import https from 'node:https';
import { checkLiteralHost, guardedLookup } from './address-guard.js';

// One POST of a delivery. Redirects are not followed (node:http never does): a 3xx is a
// failed attempt like any other non-2xx. The whole exchange has `timeoutMs`; only the
// first 1 KiB of the answer is read and kept, the rest is dropped.

export const RESPONSE_KEPT_BYTES = 1024;

export interface SendResult {
  /** the receiver's status; undefined when there was no answer */
  status?: number;
  /** the first 1 KiB of the answer's body */
  response: string;
  error?: string;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

export function send(
  urlText: string,
  body: string,
  headers: Record<string, string>,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(urlText);
      checkLiteralHost(url, options.allowPrivate);
    } catch (e) {
      return resolve({ response: '', error: (e as Error).message, durationMs: took() });
    }
    const client = url.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: took() });
    };
    const request = client.request(url, {
      method: 'POST',
      agent: agents[url.protocol as 'http:' | 'https:'],
      lookup: guardedLookup(options.allowPrivate),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'storefront-api-webhooks',
      },
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ response: '', error: `no answer within ${options.timeoutMs / 1000} s` });
    }, options.timeoutMs);
    request.on('error', (e) => finish({ response: '', error: e.message }));
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const response = Buffer.concat(chunks).subarray(0, RESPONSE_KEPT_BYTES).toString('utf8');
        finish({ status: res.statusCode, response });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= RESPONSE_KEPT_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_KEPT_BYTES) {
          done();
          res.destroy(); // the rest is not needed; the socket is not reused
        }
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
    request.end(body);
  });
}
