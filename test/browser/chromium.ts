import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). Never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = (): boolean => existsSync(CHROMIUM);

/** Where the suite saves its screenshots (git-ignored; CI keeps them as artifacts). */
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');

/** `describe`, or `describe.skip` with the reason in its name when Chromium is not installed. */
export function describeWithChromium(reason: string): jest.Describe {
  return hasChromium()
    ? describe
    : (((name: string, fn: () => void) =>
        describe.skip(`${name} [skipped: ${reason}; no ${CHROMIUM}: apt-get install chromium]`, fn)) as jest.Describe);
}

/**
 * Headless Chromium that stays off the network: these flags stop its background fetches (updates,
 * sync, safe browsing lists), which would hammer a closed network. Playwright's `launch` gives each
 * launch a fresh, temporary user-data folder of its own and removes it on close.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A 1024×768 touch tablet: the board's target screen. Each is its own browser profile. */
export function newTablet(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true, locale: 'en-US' });
}

/** A touch phone, 390×844 at twice the density unless told: the guest page's target screen. Its own browser profile. */
export function newPhone(
  browser: Browser,
  o: { width?: number; height?: number; locale?: string } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: o.width ?? 390, height: o.height ?? 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: o.locale ?? 'en-US',
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * Pauses a page's installed clock (`page.clock.install()`) about `ahead` ms past the page's now; from
 * then its timers run only when the test moves them. The installed clock runs with real time until
 * paused, and `pauseAt` refuses a time already past: on a loaded machine more than `ahead` went by
 * between reading the page's now and the pause ("Cannot fast-forward to the past"). Then the page's
 * now is read again, with twice the margin.
 */
export async function pauseClock(page: Page, ahead: number): Promise<void> {
  for (let margin = ahead, tries = 0; ; margin *= 2, tries++) {
    const now = (await page.evaluate('Date.now()')) as number;
    try {
      await page.clock.pauseAt(now + margin);
      return;
    } catch (err) {
      if (tries >= 4 || !String(err).includes('Cannot fast-forward to the past')) throw err;
    }
  }
}
