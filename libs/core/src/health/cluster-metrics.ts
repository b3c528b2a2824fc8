import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

/**
 * `/metrics` in a cluster. node:cluster hands each connection to one process, so a scrape used to
 * read whichever process took it: counters jumped between two processes' values at every scrape.
 * The process that takes the scrape asks the primary, which gathers every process's registry
 * (prom-client's AggregatorRegistry, over the cluster's IPC channel) and answers with the sums.
 */
interface MetricsRequest {
  type: 'hostboard:metrics-request';
  id: number;
}

interface MetricsAnswer {
  type: 'hostboard:metrics-answer';
  id: number;
  text?: string;
  error?: string;
}

/** The primary's side: installed by `runPrimary`. */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: unknown) => {
    const m = message as Partial<MetricsRequest> | null;
    if (m?.type !== 'hostboard:metrics-request' || typeof m.id !== 'number') return;
    const id = m.id;
    aggregator.clusterMetrics().then(
      (text) => reply(worker, { type: 'hostboard:metrics-answer', id, text }),
      (err: unknown) => reply(worker, { type: 'hostboard:metrics-answer', id, error: (err as Error).message }),
    );
  });
}

function reply(worker: Worker, answer: MetricsAnswer): void {
  // The asking process may have ended meanwhile; nobody is left to answer then.
  if (worker.isConnected()) worker.send(answer);
}

/** How long a scrape waits for the primary: prom-client itself gives up on a silent process after 5 s. */
const ANSWER_TIMEOUT_MS = 6000;
let nextId = 0;

/** A cluster process's side: the whole cluster's metrics, from the primary. */
export function askPrimaryForMetrics(): Promise<string> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown): void => {
      const m = message as Partial<MetricsAnswer> | null;
      if (m?.type !== 'hostboard:metrics-answer' || m.id !== id) return;
      done();
      if (m.error !== undefined) reject(new Error(`the cluster's metrics could not be gathered: ${m.error}`));
      else resolve(m.text ?? '');
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('the cluster primary did not answer for its metrics'));
    }, ANSWER_TIMEOUT_MS);
    const done = (): void => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    process.on('message', onMessage);
    const request: MetricsRequest = { type: 'hostboard:metrics-request', id };
    process.send?.(request);
  });
}
