import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReplicaSet } from '../db/replicas.js';

// The read replicas in /metrics (CONTRACT 16), read from the replica set when scraped: each
// replica's lag and whether reads go to it, and the statements of the read handles by the
// database that answered them (`primary` or a replica's host:port/database), whose shares are
// the replicas' part of the read load.

export function replicaMetrics(registry: Registry, replicas: ReplicaSet): void {
  new Gauge({
    name: 'storefront_replica_lag_seconds',
    help: "A read replica's lag behind the primary at its last probe (-1: the probe failed)",
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      for (const r of replicas.state()) this.set({ replica: r.name }, r.lagMs === null ? -1 : r.lagMs / 1000);
    },
  });
  new Gauge({
    name: 'storefront_replica_up',
    help: 'A read replica reads go to (1), or one left out while down or lagging (0)',
    labelNames: ['replica'],
    registers: [registry],
    collect() {
      for (const r of replicas.state()) this.set({ replica: r.name }, r.up ? 1 : 0);
    },
  });
  new Counter({
    name: 'storefront_read_statements_total',
    help: 'Statements of the read handles, by the database that answered them',
    labelNames: ['source'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ source: 'primary' }, replicas.primaryStatements);
      for (const r of replicas.state()) this.inc({ source: r.name }, r.statements);
    },
  });
}
