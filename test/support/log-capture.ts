import { Writable } from 'node:stream';

/** A pino destination that keeps every line written to it, for tests that read an app's log. */
export function logCapture(): { stream: Writable; text(): string; lines(): Record<string, unknown>[] } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  return {
    stream,
    text: () => text,
    lines: () =>
      text
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
