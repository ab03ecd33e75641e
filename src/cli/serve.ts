import { ConfigError, loadConfig, parsePort } from '../config.js';
import { closeOnSignals, startServer } from '../server.js';
import { CliError, databaseUrl, parse } from './context.js';

export async function serve(args: string[]): Promise<void> {
  const { values } = parse(
    'serve',
    args,
    {
      port: { type: 'string', value: 'N', help: 'the port to listen on (default $PORT, then 3000)' },
      host: { type: 'string', value: 'H', help: 'the address to listen on (default $HOST, then 127.0.0.1)' },
    },
    [],
  );
  let config;
  try {
    config = loadConfig(process.env, {
      databaseUrl: databaseUrl(values),
      ...(values.port !== undefined ? { port: parsePort(values.port as string) } : {}),
      ...(values.host !== undefined ? { host: values.host as string } : {}),
    });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`storefront serve: ${e.message}`, 2);
    throw e;
  }
  let server;
  try {
    server = await startServer(config);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE')
      throw new CliError(`storefront serve: ${config.host}:${config.port} is already in use (set PORT or --port)`);
    throw new CliError(`storefront serve: ${err.message.split('\n')[0]}`);
  }
  closeOnSignals(server);
}
