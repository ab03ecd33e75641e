import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** answers with another status than the expected one, errors and timeouts */
  unexpected: number;
  /** the unexpected answers by status, and requests that failed: `timeouts` (10 s) and other `errors` */
  unexpected_by?: Record<string, number>;
}

export interface LoadOptions {
  seconds: number;
  connections: number;
  expect: number;
  headers?: Record<string, string>;
  /** the path of each request after `url`'s own (autocannon's setupRequest); without it every request asks `url` */
  next?: () => { path: string; headers?: Record<string, string> };
  /** resolves to stop the load early (the import-while-serving case stops with the import) */
  until?: Promise<unknown>;
}

/** Runs autocannon against the server at `url` for `seconds` with `connections` keep-alive connections. */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  let unexpected = 0;
  const by: Record<string, number> = {};
  const { next } = options;
  // A drawn path is relative to the URL's own path (the project's prefix).
  const prefix = new URL(url).pathname.replace(/\/$/, '');
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: options.connections,
        headers: options.headers,
        pipelining: 1,
        duration: options.seconds,
        ...(next
          ? {
              requests: [
                {
                  setupRequest: (req: autocannon.Request) => {
                    const drawn = next();
                    return { ...req, path: prefix + drawn.path, headers: { ...req.headers, ...drawn.headers } };
                  },
                },
              ],
            }
          : {}),
      },
      (err, res) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)),
    );
    instance.on('response', (_client: unknown, status: number) => {
      if (status === options.expect) return;
      unexpected++;
      by[status] = (by[status] ?? 0) + 1;
    });
    void options.until?.then(() => instance.stop());
  });
  // Requests over elapsed time: autocannon's own average counts whole seconds only.
  return {
    rps: result.duration > 0 ? result.requests.total / result.duration : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // autocannon's errors include its timeouts
    unexpected: unexpected + result.errors,
    ...(unexpected + result.errors > 0
      ? { unexpected_by: { ...by, errors: result.errors - result.timeouts, timeouts: result.timeouts } }
      : {}),
  };
}
