import { createServer } from 'node:http';

// The baseline: a bare node:http server answering GET /<n> with a fixed JSON body of n bytes
// and the same headers an API answer carries. What the API achieves is shown as a share of
// this, on the same machine in the same run.

const bodies = new Map<number, Buffer>();

function body(size: number): Buffer {
  let b = bodies.get(size);
  if (!b) {
    const filler = Math.max(0, size - '{"data":""}'.length);
    b = Buffer.from(`{"data":"${'x'.repeat(filler)}"}`);
    bodies.set(size, b);
  }
  return b;
}

const server = createServer((req, res) => {
  const payload = body(Number(req.url!.slice(1)) || 2);
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': payload.length,
    'cache-control': 'public, no-cache',
    etag: '"baseline"',
    'access-control-allow-origin': '*',
  });
  res.end(payload);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.argv[2]), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
