import cluster from 'node:cluster';
import { Injectable } from '@nestjs/common';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { askPrimaryForMetrics } from './cluster-metrics.js';

/** Every job ends one of these ways; `failed` is a handler that threw (BullMQ retries it, the safety net covers it). */
export type JobOutcome = 'done' | 'skipped' | 'failed';

/** What became of a guest message a provider was handed. */
export type MessageOutcome = 'sent' | 'retrying' | 'failed';

/**
 * The process's Prometheus registry: default process metrics, HTTP timings by route, and what an
 * operator asks at 8 pm: are holds released on time, are jobs failing, do guests hear from us, and
 * can the api reach its database and Redis. In a cluster (`npm start --cores`) a scrape answers for
 * every process of it, summed by the primary, not for whichever process took the connection.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'hostboard_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /** Live venues only: a sandbox's simulated clock would make its figures meaningless. */
  readonly holdExpiryLag = new Histogram({
    name: 'hostboard_hold_expiry_lag_seconds',
    help: 'How long after its deadline each lapsed hold was released (live venues; by its expiry job or the next decision)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300],
    registers: [this.registry],
  });

  readonly jobs = new Counter({
    name: 'hostboard_jobs_total',
    help: 'Jobs run by this process, by job and outcome (done, skipped: nothing to do, failed: the handler threw)',
    labelNames: ['job', 'outcome'],
    registers: [this.registry],
  });

  readonly guestMessages = new Counter({
    name: 'hostboard_guest_messages_total',
    help: 'Guest and staff messages handed to a provider, by channel and outcome (sent, retrying: refused for now, failed)',
    labelNames: ['channel', 'outcome'],
    registers: [this.registry],
  });

  readonly guestMessageDelay = new Histogram({
    name: 'hostboard_guest_message_delay_seconds',
    help: 'From a message being recorded to a provider taking it, by channel',
    labelNames: ['channel'],
    buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });

  /** Per process, averaged over a cluster's (one host, one clock): persistence's ClockWatch sets it. */
  readonly clockSkew = new Gauge({
    name: 'hostboard_clock_skew_seconds',
    help: "This host's clock minus the database's at the last check (every minute); the process follows the database's past 0.25 s",
    aggregator: 'average',
    registers: [this.registry],
  });

  /**
   * Read at each scrape by the process answering it, and kept out of the cluster's sums: another
   * process's value would be from its last scrape, however long ago.
   */
  private readonly atScrape = new Registry();
  readonly dependencyUp = new Gauge({
    name: 'hostboard_dependency_up',
    help: 'Whether the api reached each dependency at the scrape (1) or not (0)',
    labelNames: ['dependency'],
    registers: [this.atScrape],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    if (cluster.isWorker) {
      // prom-client answers the primary's requests for this registry (its listener is installed by
      // constructing an AggregatorRegistry); the primary sums every process's answers.
      AggregatorRegistry.setRegistries([this.registry]);
      new AggregatorRegistry();
    }
  }

  /** The scrape's text: every process of a cluster when this is one of them, else this process. */
  async text(): Promise<string> {
    const all = cluster.isWorker && process.send ? await askPrimaryForMetrics() : await this.registry.metrics();
    return `${all.trimEnd()}\n\n${await this.atScrape.metrics()}`;
  }
}
