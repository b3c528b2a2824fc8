import { Server } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/** How long a stopping api waits for the requests it has accepted (a venue's lock is waited for 5 s at most). */
export const DRAIN_MS = 8000;

/**
 * A graceful stop (SIGTERM at a deploy) answers every request the process has accepted, then lets it
 * exit at once. Before, the stop began with socket.io's and Fastify's `server.close()`, which destroys
 * the connections Node counts as idle: a request still being worked on (waiting for a venue's lock,
 * say) was sometimes among them, and its client read a reset connection while its command went on to
 * commit, or not. And a keep-alive connection answered after that moment stayed open until its idle
 * timeout (72 s), past a container's grace period (10 s in docker), whose SIGKILL then cut the rest of
 * the shutdown (the database pool, the last buffered log lines).
 *
 * So, before the server is closed: stop listening (new connections go to the other processes, or are
 * refused at once), wait for the requests in flight to be answered (at most DRAIN_MS), each answer
 * saying `Connection: close`; only then close what is left, which is idle.
 */
@Injectable()
export class RequestDrain implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private inFlight = 0;
  private stopping = false;
  private drained: Array<() => void> = [];

  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const http = this.host.httpAdapter.getInstance<FastifyInstance>();
    http.addHook('onRequest', (_request, reply, done) => {
      this.inFlight++;
      let ended = false;
      reply.raw.once('close', () => {
        if (ended) return;
        ended = true;
        this.inFlight--;
        if (this.inFlight === 0) for (const resolve of this.drained.splice(0)) resolve();
      });
      done();
    });
    http.addHook('onSend', (request, reply, payload, done) => {
      if (this.stopping && request.raw.httpVersionMajor < 2) void reply.header('connection', 'close');
      done(null, payload);
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const server = this.host.httpAdapter.getHttpServer() as HttpServer;
    // net's close, not http's: it stops accepting without destroying any connection.
    if (server.listening) Server.prototype.close.call(server);
    if (this.inFlight === 0) return;
    const waiting = this.inFlight;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      new Promise<boolean>((resolve) => this.drained.push(() => resolve(true))),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_MS))),
    ]);
    clearTimeout(timer);
    if (!done) this.logger.warn(`stopping with ${this.inFlight} of ${waiting} request(s) unanswered after ${DRAIN_MS / 1000} s`);
  }
}
