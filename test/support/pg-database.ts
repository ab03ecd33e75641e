import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { PG_URL } from './storage.js';

// A fresh PostgreSQL database for tests that run the real CLI or server processes (which
// take a plain DATABASE_URL, not a schema). Dropped, with any connection left, at the end.

export interface FreshDatabase {
  name: string;
  url: string;
  /** the same database reached through another host and port (a proxy) */
  urlVia(port: number): string;
}

export async function freshDatabase(t: TestContext, prefix = 'sf_test'): Promise<FreshDatabase> {
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  t.after(() => adminQuery(`drop database if exists ${name} with (force)`));
  const url = withDatabase(PG_URL, name);
  return { name, url, urlVia: (port) => withPort(url, port) };
}

export async function adminQuery(text: string, values: unknown[] = [], url = PG_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}
