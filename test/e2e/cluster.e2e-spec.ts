import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import request from 'supertest';
import { SystemClock } from '@hostboard/core';
import { BullmqScheduler } from '@hostboard/jobs/bullmq/bullmq.scheduler.js';
import { BoardClient } from '../support/board-client.js';
import { samplesOf } from '../support/metrics-scrape.js';
import { backends, describeWithServerAndRedis, freshDatabase, type TestDatabase } from '../support/test-database.js';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * `npm start --cores`: several api processes on one port (node:cluster). Each board socket lives on
 * the process that accepted it; board events reach every socket whichever process made the change,
 * and a process that dies is replaced while the others keep serving.
 */
describeWithServerAndRedis('several api processes sharing one port need PostgreSQL and Redis')(
  'api on every core (node:cluster)',
  () => {
    let db: TestDatabase;
    let primary: ChildProcess;
    let output = '';
    let baseUrl = '';
    const email = `owner-${randomBytes(4).toString('hex')}@example.test`;
    const metricsToken = `metrics-${randomBytes(8).toString('hex')}`;
    const scraper = { Authorization: `Bearer ${metricsToken}` };
    /** One sample of a scrape's text, by its exact name and labels. */
    const sample = (text: string, series: string): number => samplesOf(text)[series] ?? Number.NaN;
    const password = `pw-${randomBytes(8).toString('hex')}`;

    const waitFor = async (what: () => boolean, ms: number, label: string): Promise<void> => {
      const until = performance.now() + ms;
      while (!what()) {
        if (performance.now() > until) throw new Error(`timed out waiting for ${label}; output:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    beforeAll(async () => {
      db = await freshDatabase();
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      primary = spawn(process.execPath, ['dist/apps/api/src/main.js', '--cores'], {
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          PORT: String(port),
          API_PROCESSES: '2',
          METRICS_TOKEN: metricsToken,
          JOBS_PREFIX: `cluster-${randomBytes(3).toString('hex')}`,
          BOOTSTRAP_OWNER_EMAIL: email,
          BOOTSTRAP_OWNER_PASSWORD: password,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      primary.stdout?.on('data', (d: Buffer) => (output += d.toString()));
      primary.stderr?.on('data', (d: Buffer) => (output += d.toString()));
      // A fresh database's migrations, then two api processes started one after the other: at load
      // 19-23 on a 2-core machine this once took more than 60 s. 110 s stays inside jest's 120 s
      // hook timeout (testTimeout in jest.config.js), leaving room for freshDatabase above.
      await waitFor(() => output.includes('api processes:   2'), 110_000, 'the banner');
    });
    afterAll(async () => {
      if (primary.exitCode === null) {
        const exited = new Promise((r) => primary.once('exit', r));
        primary.kill('SIGTERM');
        await exited;
      }
      await db.drop();
    });

    /** The api processes: the primary's children. */
    const workerPids = (parent: ChildProcess = primary): number[] => {
      try {
        return execFileSync('pgrep', ['-P', String(parent.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
          .map(Number);
      } catch {
        return [];
      }
    };

    it('splits the warm database connections between its processes (DATABASE_POOL_WARM 8: four each, not eight each)', async () => {
      // The second process may still be starting: read until the count holds still for 2 s.
      let open = -1;
      for (let same = 0, until = performance.now() + 40_000; same < 4 && performance.now() < until;) {
        await new Promise((r) => setTimeout(r, 500));
        const now = await backends(db.url ?? '');
        same = now === open && now >= 8 ? same + 1 : 0;
        open = now;
      }
      expect(open).toBeGreaterThanOrEqual(8);
      expect(open).toBeLessThan(16);
    });

    it("its primary only forks and watches: it never loads the app, so it holds a fraction of a serving process's memory", async () => {
      const rssKb = (pid: number | undefined): number =>
        Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
      const serving = workerPids().map(rssKb);
      expect(serving).toHaveLength(2);
      // About 85 MB against 165 MB here; with the app loaded the primary held as much as they do.
      expect(rssKb(primary.pid)).toBeLessThan(0.7 * Math.min(...serving));
    });

    it('a scrape of /metrics counts the requests of every process, whichever process takes it', async () => {
      // node:cluster hands each connection to one process; a scrape used to read that process alone,
      // so counters jumped between the two processes' values from one scrape to the next.
      const scrape = async (): Promise<string> =>
        (await request(baseUrl).get('/metrics').set(scraper).set('Connection', 'close').expect(200)).text;
      const scrapes = 'hostboard_http_request_duration_seconds_count{method="GET",route="/metrics",status="200"}';
      const health = 'hostboard_http_request_duration_seconds_count{method="GET",route="/health",status="200"}';
      const first = await scrape();
      for (let i = 0; i < 10; i++) await request(baseUrl).get('/health').set('Connection', 'close').expect(200);
      const counts = [first];
      for (let i = 0; i < 4; i++) counts.push(await scrape());
      // Each scrape counts every scrape before it, on whichever process it ran.
      const seen = counts.map((text) => sample(text, scrapes) || 0);
      expect(seen.slice(1).map((n, i) => n - (seen[i] ?? 0))).toEqual([1, 1, 1, 1]);
      expect(sample(counts[1] ?? '', health) - (sample(first, health) || 0)).toBe(10);
      // The answering process's own view of its dependencies, once (not summed over the processes).
      expect(sample(counts[4] ?? '', 'hostboard_dependency_up{dependency="database"}')).toBe(1);
      expect(sample(counts[4] ?? '', 'hostboard_dependency_up{dependency="redis"}')).toBe(1);
      // Still nothing for a request without the token.
      await request(baseUrl).get('/metrics').expect(404);
    });

    it('delivers every board event to sockets on both processes, and replaces a process that dies', async () => {
      const login = await request(baseUrl).post('/v1/auth/sessions').send({ email, password }).expect(201);
      const token = (login.body as { token: string }).token;
      const auth = { Authorization: `Bearer ${token}` };
      const venue = await request(baseUrl)
        .post('/v1/venues')
        .set(auth)
        .send({
          slug: `cl-${randomBytes(3).toString('hex')}`,
          name: 'Cluster',
          timeZone: 'Europe/Paris',
          preset: 'workshop',
          poolCapacity: 10,
        })
        .expect(201);
      const venueId = (venue.body as { id: string }).id;

      const pids = workerPids();
      expect(pids).toHaveLength(2);
      // node:cluster hands connections out in turn (round robin), so eight sockets land on both processes.
      const boards = Array.from({ length: 8 }, () => new BoardClient(baseUrl, token));
      await Promise.all(boards.map((b) => b.connected()));
      await Promise.all(boards.map((b) => b.subscribe(venueId)));
      for (let i = 0; i < 6; i++) {
        await request(baseUrl)
          .post(`/v1/venues/${venueId}/queue`)
          .set(auth)
          .send({ name: `P${i}`, partySize: 1, email: `p${i}-${randomBytes(2).toString('hex')}@example.test` })
          .expect(201);
      }
      await waitFor(() => boards.every((b) => b.events.length >= 6), 5_000, 'the events on every socket');
      // Each socket gets each event once. Their order is not promised across processes: a process
      // hands its own event to its sockets at once and the other's through Redis, so one socket saw
      // 1, 2, 3, 5, 4, 6 in a CI run. A push is only a signal to the board page, which reads the
      // whole board for any version ahead of the one shown and never shows an older one.
      for (const b of boards) expect(b.events.map((e) => e.version).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
      for (const b of boards) b.close();

      const [victim, survivor] = pids as [number, number];
      process.kill(victim, 'SIGKILL');
      await waitFor(() => output.includes(`api process ${victim} ended`), 5_000, 'the primary to notice');
      // The survivor keeps answering while the replacement starts.
      for (let i = 0; i < 5; i++) await request(baseUrl).get('/health').expect(200);
      await waitFor(() => workerPids().length === 2, 30_000, 'a replacement process');
      const now = workerPids();
      expect(now).toContain(survivor);
      expect(now).not.toContain(victim);
    });

    it('a single worker serves its own /metrics on WORKER_METRICS_PORT, only with METRICS_TOKEN', async () => {
      const metricsPort = await freePort();
      const run = (env: Record<string, string>): { child: ChildProcess; output: () => string } => {
        let text = '';
        const child = spawn(process.execPath, ['dist/apps/worker/src/main.js'], {
          env: {
            ...process.env,
            DATABASE_URL: db.url,
            JOBS_PREFIX: `single-w-${randomBytes(3).toString('hex')}`,
            LOG_LEVEL: 'warn',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
        child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
        return { child, output: () => text };
      };
      // A port without the token would serve nobody: refused in one line.
      const refused = run({ WORKER_METRICS_PORT: String(metricsPort), METRICS_TOKEN: '' });
      const code = await new Promise((r) => refused.child.once('exit', r));
      expect(code).toBe(1);
      expect(refused.output().trim()).toBe(
        'Configuration error: WORKER_METRICS_PORT needs METRICS_TOKEN (a scrape must send it)',
      );

      const single = run({ WORKER_METRICS_PORT: String(metricsPort), METRICS_TOKEN: metricsToken });
      try {
        for (const until = performance.now() + 60_000; !single.output().includes('hostboard worker is consuming jobs');) {
          if (performance.now() > until || single.child.exitCode !== null)
            throw new Error(`the worker did not start:\n${single.output()}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        await request(`http://127.0.0.1:${metricsPort}`)
          .get('/metrics')
          .set({ Authorization: 'Bearer not-the-token' })
          .expect(404);
        const text = (await request(`http://127.0.0.1:${metricsPort}`).get('/metrics').set(scraper).expect(200)).text;
        expect(text).toContain('# TYPE hostboard_jobs_total counter');
        expect(text).toContain('# TYPE hostboard_hold_expiry_lag_seconds histogram');
        expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      } finally {
        const exited = new Promise((r) => single.child.once('exit', r));
        single.child.kill('SIGTERM');
        await exited;
      }
    });

    it('the worker runs several processes under node:cluster when asked (WORKER_PROCESSES), and replaces one that dies', async () => {
      let workerOutput = '';
      const jobsPrefix = `cluster-w-${randomBytes(3).toString('hex')}`;
      const metricsPort = await freePort();
      const worker = spawn(process.execPath, ['dist/apps/worker/src/main.js', '--cores'], {
        env: {
          ...process.env,
          DATABASE_URL: db.url,
          WORKER_PROCESSES: '2',
          JOBS_PREFIX: jobsPrefix,
          METRICS_TOKEN: metricsToken,
          WORKER_METRICS_PORT: String(metricsPort),
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker.stdout?.on('data', (d: Buffer) => (workerOutput += d.toString()));
      worker.stderr?.on('data', (d: Buffer) => (workerOutput += d.toString()));
      const waitWorker = async (what: () => boolean, label: string): Promise<void> => {
        const until = performance.now() + 60_000;
        while (!what()) {
          if (performance.now() > until) throw new Error(`timed out waiting for ${label}; worker output:\n${workerOutput}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      try {
        await waitWorker(() => workerOutput.includes('worker processes: 2'), 'the worker banner');
        expect(workerOutput.match(/hostboard worker is consuming jobs/g)).toHaveLength(1); // one banner, from the primary
        const pids = workerPids(worker);
        expect(pids).toHaveLength(2);

        // Its /metrics (WORKER_METRICS_PORT, served by the primary) counts the jobs of both processes.
        const workerMetrics = `http://127.0.0.1:${metricsPort}`;
        await request(workerMetrics).get('/metrics').expect(404);
        const producer = new BullmqScheduler(new SystemClock(), {
          redisUrl: process.env['REDIS_URL'] ?? '',
          consume: false,
          prefix: jobsPrefix,
        });
        try {
          // Expiry jobs for offers that do not exist: each run finds nothing to do ("skipped").
          for (let i = 0; i < 6; i++) {
            const offerId = randomUUID();
            await producer.schedule('offer-expiry', { venueId: randomUUID(), offerId }, { jobId: offerId, runAt: new Date() });
          }
        } finally {
          await producer.stop();
        }
        const skipped = 'hostboard_jobs_total{job="offer-expiry",outcome="skipped"}';
        let ran = 0;
        for (const until = performance.now() + 30_000; ran < 6 && performance.now() < until;) {
          await new Promise((r) => setTimeout(r, 200));
          ran = sample((await request(workerMetrics).get('/metrics').set(scraper).expect(200)).text, skipped) || 0;
        }
        expect(ran).toBe(6);

        const [victim] = pids as [number, number];
        process.kill(victim, 'SIGKILL');
        await waitWorker(() => workerOutput.includes(`worker process ${victim} ended`), 'the primary to notice');
        await waitWorker(() => workerPids(worker).length === 2 && !workerPids(worker).includes(victim), 'a replacement worker');
      } finally {
        const exited = new Promise((r) => worker.once('exit', r));
        worker.kill('SIGTERM');
        await exited;
      }
      expect(workerPids(worker)).toEqual([]);
    });
  },
);
