import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { ApiClient } from '../../web/board/src/api/client.js';

/**
 * The board's API client (the page's own code, run here against a loopback server): a tap whose
 * answer was lost, repeated soon, carries the same Idempotency-Key (the server answers it with what it
 * did the first time); repeated a minute later it is a new act with a new key, as is another body,
 * an answered tap, or the same tap by another session.
 */
describe('the board client: the same Idempotency-Key only for a retry of a lost answer, soon after', () => {
  let server: Server;
  let base: string;
  const keys: string[] = [];
  let dropNext = false;
  let token = 'session-a';
  let clock = 1_000;

  beforeAll(async () => {
    jest.spyOn(performance, 'now').mockImplementation(() => clock);
    server = createServer((req, res) => {
      keys.push(String(req.headers['idempotency-key']));
      req.resume();
      req.on('end', () => {
        // The server acted, but its answer never reaches the tablet.
        if (dropNext) {
          dropNext = false;
          req.socket.destroy();
          return;
        }
        res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const client = new ApiClient(
    () => token,
    () => undefined,
  );
  const tap = async (body: object = {}): Promise<'answered' | 'lost'> =>
    client.post(`${base}/v1/venues/v/promotions`, body).then(
      () => 'answered' as const,
      () => 'lost' as const,
    );

  it('sends the lost tap’s key again within the minute, a new one after it or after an answer', async () => {
    keys.length = 0;
    dropNext = true;
    expect(await tap()).toBe('lost');
    clock += 20_000;
    expect(await tap()).toBe('answered');
    expect(keys[1]).toBe(keys[0]);
    // Answered: the next tap is the next act.
    expect(await tap()).toBe('answered');
    expect(keys[2]).not.toBe(keys[1]);

    // Lost, then the same tap more than a minute later: it means the next group, a new key.
    dropNext = true;
    expect(await tap()).toBe('lost');
    clock += 61_000;
    expect(await tap()).toBe('answered');
    expect(keys[4]).not.toBe(keys[3]);
  });

  it('another body, or another session on the tablet, is another act', async () => {
    keys.length = 0;
    dropNext = true;
    expect(await tap({ tableIds: ['t1'] })).toBe('lost');
    expect(await tap({ tableIds: ['t2'] })).toBe('answered');
    expect(keys[1]).not.toBe(keys[0]);
    dropNext = true;
    expect(await tap({ n: 1 })).toBe('lost');
    token = 'session-b';
    expect(await tap({ n: 1 })).toBe('answered');
    expect(keys[3]).not.toBe(keys[2]);
  });
});
