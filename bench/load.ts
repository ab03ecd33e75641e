import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** answers with another status than the expected one (or errors) */
  unexpected: number;
}

/** Runs autocannon against one URL for `seconds` with `connections` keep-alive connections. */
export async function load(
  url: string,
  options: { seconds: number; connections: number; headers?: Record<string, string>; expect: number },
): Promise<LoadResult> {
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: options.connections, headers: options.headers, pipelining: 1, duration: options.seconds },
      (err, res) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(res)),
    );
    instance.on('response', (_client: unknown, status: number) => {
      if (status !== options.expect) unexpected++;
    });
  });
  // Requests over elapsed time: autocannon's own average counts whole seconds only.
  return {
    rps: result.duration > 0 ? result.requests.total / result.duration : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    unexpected: unexpected + result.errors + result.timeouts,
  };
}
