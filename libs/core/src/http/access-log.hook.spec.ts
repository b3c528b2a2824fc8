import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { Metrics } from '../health/metrics.js';
import { installAccessLog } from './access-log.hook.js';

/** The access log's level per answer: a failed request is an error line, /ready's 503 is not. */
describe('access log', () => {
  it('logs a 500 as an error, and /ready answering 503 while a dependency is down as an ordinary line', async () => {
    const lines: Array<{ level: number; msg: string; res: { statusCode: number } }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    const http = Fastify();
    installAccessLog(http, pino({ level: 'info' }, sink), new Metrics());
    http.get('/ready', (_req, reply) => reply.code(503).send({ status: 'unavailable' }));
    http.get('/boom', (_req, reply) => reply.code(500).send({}));
    await http.inject({ method: 'GET', url: '/ready' });
    await http.inject({ method: 'GET', url: '/boom' });
    await http.close();
    expect(lines.map((l) => [l.res.statusCode, l.level, l.msg])).toEqual([
      [503, 30, 'request completed'],
      [500, 50, 'request errored'],
    ]);
  });
});
