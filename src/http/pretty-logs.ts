import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';

// Logs for a person at a terminal: one short line a request, and warnings and errors with
// their stack on the lines below. pino-pretty is imported here only, when the pretty format
// is chosen, so that a server writing JSON lines never loads it.

// pino's bindings a reader does not need on a terminal (the JSON lines keep them all)
const IGNORED = 'pid,hostname,reqId';

/**
 * The logger options with pino's JSON lines turned into readable ones, written synchronously
 * to the options' own stream or to stdout (a pipe or a terminal is written synchronously on
 * Linux, so the last lines before an exit are not lost).
 */
export async function prettyLogger(
  logger: FastifyServerOptions['logger'],
  /** NO_COLOR (config.ts): no colours even on a terminal */
  noColor: boolean,
): Promise<FastifyServerOptions['logger']> {
  if (!logger) return false;
  const base = logger === true ? {} : (logger as { stream?: NodeJS.WritableStream });
  const out = base.stream ?? process.stdout;
  const { prettyFactory } = (await import('pino-pretty')).default;
  const prettify = prettyFactory({
    singleLine: true,
    ignore: IGNORED,
    translateTime: 'SYS:HH:MM:ss.l',
    // colours only where a terminal shows them
    colorize: Boolean((out as { isTTY?: boolean }).isTTY) && !noColor,
  });
  return { ...base, stream: { write: (line: string) => out.write(prettify(line)) } };
}

/**
 * Fastify's request logging in the pretty format: `GET /v2/projects/shop/products/?page=2 200 1.4 ms`
 * when the answer is sent, instead of an "incoming request" and a "request completed" object
 * (which the JSON format keeps).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    const line = `${request.method} ${request.url} ${status} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else if (status >= 500) reply.log.error(line);
    else reply.log.info(line);
  }
}
