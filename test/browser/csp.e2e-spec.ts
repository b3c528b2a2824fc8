import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../support/test-app.js';
import { createVenue, signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newTablet } from './chromium.js';

/**
 * Issue 12 item 5: the board page under the security headers (helmet's CSP and the page's own): it
 * signs in, goes live on its socket, takes a desk join and shows the token's QR code, and the browser
 * reports no Content-Security-Policy violation on the way.
 */

const d = describeWithChromium('the board page is tested in a real browser');

d('board page under the Content-Security-Policy (Chromium)', () => {
  let t: TestApp;
  let browser: Browser;
  let owner: Staff;
  let venueId: string;

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'csp-owner');
    venueId = (
      await createVenue(t, owner, { preset: 'workshop', poolCapacity: 10, sandbox: true, clock: '2026-10-09T14:00:00Z' })
    ).id;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  it('works end to end with no violation reported', async () => {
    const context = await newTablet(browser);
    // Recorded in the page from its first script on: every violation the browser reports.
    await context.addInitScript({
      content: `window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`,
    });
    const page: Page = await context.newPage();
    const consoleViolations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) consoleViolations.push(m.text());
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));

    const answer = await page.goto(`${t.baseUrl}/board`);
    const headers = answer?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');

    await page.fill('input[name=email]', owner.email);
    await page.fill('input[name=password]', owner.password);
    await page.click('button[type=submit]');
    await page.click(`[data-venue-id="${venueId}"]`);
    // The socket.io connection (connect-src 'self', ws: on the same host) is what makes it live.
    await page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout: 10_000 });

    await page.click('[data-testid=open-join]');
    await page.fill('input[name=name]', 'Ada under CSP');
    await page.fill('input[name=partySize]', '2');
    await page.click('[data-testid=join-submit]');
    // The QR code: an SVG the page writes in (img-src data: covers the favicon).
    await page.locator('[data-testid=token-qr] svg').waitFor({ timeout: 10_000 });
    await page.click('[data-testid=token-done]');
    await page.locator('[data-testid=entry]', { hasText: 'Ada under CSP' }).waitFor({ timeout: 10_000 });

    const violations = (await page.evaluate('window.__csp')) as string[];
    expect({ violations, consoleViolations, pageErrors }).toEqual({ violations: [], consoleViolations: [], pageErrors: [] });
    await context.close();
  });
});
