import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { Webhook } from 'standardwebhooks';

// A real webhook receiver for the tests: it verifies every delivery with the
// `standardwebhooks` package, unchanged, as a user's receiver would, and records it. Its
// answer is decided per delivery (`answer`), and it notices two deliveries of one webhook-id
// in flight at once (`overlaps`).

export interface Delivery {
  id: string;
  type: string;
  data: any;
  timestamp: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** which of the receiver's secrets verified it */
  verifiedBy: string[];
}

export interface Receiver {
  url: string;
  /** verified deliveries answered 2xx, in arrival order */
  deliveries: Delivery[];
  /** every verified arrival, with the status it was answered */
  arrivals: { delivery: Delivery; status: number }[];
  /** deliveries whose signature did not verify, with the reason */
  badSignatures: string[];
  /** webhook-ids that arrived while an earlier delivery of the same id was still being answered */
  overlaps: string[];
  /** the secrets deliveries are verified with (a delivery must verify with every one) */
  secrets: string[];
  /** the status for a delivery (default 204), after `delayMs` */
  answer: (d: Delivery) => number;
  delayMs: number;
  /** resolves once `predicate` holds (checked after each arrival) */
  waitFor(predicate: (r: Receiver) => boolean, what: string, timeoutMs?: number): Promise<void>;
}

export async function startReceiver(t: TestContext, secrets: string[] = []): Promise<Receiver> {
  const waiters = new Set<() => void>();
  const inFlight = new Set<string>();
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    arrivals: [],
    badSignatures: [],
    overlaps: [],
    secrets,
    answer: () => 204,
    delayMs: 0,
    async waitFor(predicate, what, timeoutMs = 20_000) {
      if (predicate(receiver)) return;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what} (${receiver.deliveries.length} deliveries so far)`));
        }, timeoutMs);
        const check = () => {
          if (!predicate(receiver)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id']);
      if (inFlight.has(id)) receiver.overlaps.push(id);
      inFlight.add(id);
      let payload: any;
      const verifiedBy: string[] = [];
      try {
        for (const secret of receiver.secrets) {
          payload = new Webhook(secret).verify(body, req.headers as Record<string, string>);
          verifiedBy.push(secret);
        }
      } catch (e) {
        receiver.badSignatures.push(`${id}: ${(e as Error).message}`);
        inFlight.delete(id);
        res.writeHead(400).end('bad signature');
        return;
      }
      const delivery: Delivery = {
        id,
        type: payload.type,
        data: payload.data,
        timestamp: payload.timestamp,
        headers: req.headers,
        body,
        verifiedBy,
      };
      const status = receiver.answer(delivery);
      setTimeout(() => {
        inFlight.delete(id);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `status ${status}`);
        receiver.arrivals.push({ delivery, status });
        if (status < 300) receiver.deliveries.push(delivery);
        for (const w of [...waiters]) w();
      }, receiver.delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return receiver;
}
