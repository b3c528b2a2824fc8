import { fastify, type FastifyInstance } from 'fastify';
import { mkdtempSync, mkdirSync, readdirSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { boardPageDir, installBoardPage } from '../../apps/api/src/board-page.js';
import { installSecurityHeaders } from '../../apps/api/src/security-headers.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp } from '../support/staff.js';

/** Issue 12 item 5: security headers on every answer, and no source maps served in production. */

const csp = (res: request.Response): string => String(res.headers['content-security-policy'] ?? '');

function expectHardened(res: request.Response, what: string): void {
  expect({ what, nosniff: res.headers['x-content-type-options'] }).toEqual({ what, nosniff: 'nosniff' });
  expect({ what, frame: res.headers['x-frame-options'] }).toEqual({ what, frame: 'DENY' });
  expect({ what, referrer: res.headers['referrer-policy'] }).toEqual({ what, referrer: 'no-referrer' });
  expect(csp(res)).toContain("frame-ancestors 'none'");
  expect(csp(res)).not.toContain('upgrade-insecure-requests');
  expect(res.headers['x-powered-by']).toBeUndefined();
}

describe('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('are on every kind of answer: success, refusals, parse errors, unknown routes, pages', async () => {
    const answers: Array<[string, request.Test]> = [
      ['health', request(t.baseUrl).get('/health')],
      ['unauthenticated', request(t.baseUrl).get('/v1/venues')],
      ['unknown route', request(t.baseUrl).get('/v1/nothing-here')],
      ['bad json', request(t.baseUrl).post('/v1/auth/sessions').set('Content-Type', 'application/json').send('{')],
      ['validation', request(t.baseUrl).post('/v1/auth/sessions').send({ email: 'a\u0000b', password: 'x' })],
      ['board page', request(t.baseUrl).get('/board')],
      ['docs', request(t.baseUrl).get('/docs')],
    ];
    for (const [what, req] of answers) expectHardened(await req, what);
  });

  it("keep API answers out of every cache (they carry session tokens and guests' details); the pages stay cacheable", async () => {
    const owner = await signUp(t, 'owner');
    const login = await request(t.baseUrl)
      .post('/v1/auth/sessions')
      .send({ email: owner.email, password: owner.password })
      .expect(201);
    expect(login.headers['cache-control']).toBe('no-store');
    for (const res of [
      await request(t.baseUrl).get('/v1/venues').set(owner.auth).expect(200),
      await request(t.baseUrl).get('/v1/venues'),
      await request(t.baseUrl).get('/v1/nothing-here'),
    ])
      expect(res.headers['cache-control']).toBe('no-store');
    expect((await request(t.baseUrl).get('/board/')).headers['cache-control']).toBe('no-cache');
  });

  it('keep the pages on their own origin: no inline scripts anywhere, inline styles only for the API docs', async () => {
    const board = csp(await request(t.baseUrl).get('/board'));
    expect(board).toMatch(/script-src 'self'(;|$)/);
    expect(board).not.toContain('unsafe-inline');
    expect(board).toContain("connect-src 'self'");
    expect(board).toContain("img-src 'self' data:");
    const guest = csp(await request(t.baseUrl).get('/q/'));
    expect(guest).toMatch(/script-src 'self'(;|$)/);
    expect(guest).not.toContain('unsafe-inline');
    // The pages answer the same policy as the rest of the api, plugins ruled out included.
    const api = csp(await request(t.baseUrl).get('/health'));
    expect(api).toContain("object-src 'none'");
    for (const page of ['/board', '/board/', '/board/settings', '/q/'])
      expect([page, csp(await request(t.baseUrl).get(page))]).toEqual([page, api]);
    const docs = csp(await request(t.baseUrl).get('/docs'));
    expect(docs).toMatch(/script-src 'self'(;|$)/);
    expect(docs).toContain("style-src 'self' 'unsafe-inline'");
  });

  it('the shipped board build carries no source maps', () => {
    const assets = join(boardPageDir(), 'assets');
    if (!existsSync(assets)) return; // not built in this checkout: nothing is served either
    expect(readdirSync(assets).filter((f) => f.endsWith('.map'))).toEqual([]);
  });
});

describe('source maps in production', () => {
  const dir = mkdtempSync(join(tmpdir(), 'board-page-'));
  beforeAll(() => {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>b</title>');
    writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)\n//# sourceMappingURL=index-abc.js.map');
    writeFileSync(join(dir, 'assets', 'index-abc.js.map'), '{"version":3}');
  });
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  const app = async (production: boolean): Promise<FastifyInstance['server']> => {
    const http = fastify();
    apps.push(http);
    installSecurityHeaders(http, { production });
    installBoardPage(http, dir);
    await http.ready();
    return http.server;
  };

  it('are not served even when a build left them in the page directory', async () => {
    const prod = await app(true);
    expect((await request(prod).get('/board/assets/index-abc.js')).status).toBe(200);
    const map = await request(prod).get('/board/assets/index-abc.js.map');
    expect(map.status).toBe(404);
    expect(map.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route.', details: {} } });
    expect((await request(prod).get('/q/assets/index-abc.js.map')).status).toBe(404);
    // Outside production the same file is served, so the refusal above is the guard's doing.
    expect((await request(await app(false)).get('/board/assets/index-abc.js.map')).status).toBe(200);
  });
});
