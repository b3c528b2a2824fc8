import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { boardLive, openVenueBoard } from './board-page.js';
import { launchChromium, newPhone } from './chromium.js';

export interface PhoneBoardFile {
  /** The file's app, its Chromium and the staff member who signed up (set in its beforeAll). */
  t: TestApp;
  browser: Browser;
  owner: Staff;
  /** A 390×844 phone signed in as the owner, on the venue's board once it is live. */
  phone(venueId: string): Promise<Page>;
  /** A new page on a 390×844 phone or a 1280×800 screen, signed in as nobody yet (closed with the file). */
  page(size: 'phone' | 'desktop'): Promise<Page>;
}

/**
 * The set-up of a test file that works a venue's board on phones: one app, one Chromium and one
 * signed-up owner for the file, and every phone it opened closed with it. Call inside the file's
 * describe, which registers its hooks.
 */
export function phoneBoardFile(ownerName: string): PhoneBoardFile {
  const contexts: BrowserContext[] = [];
  const file = {
    page: async (size: 'phone' | 'desktop'): Promise<Page> => {
      const context =
        size === 'phone'
          ? await newPhone(file.browser)
          : await file.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      contexts.push(context);
      return context.newPage();
    },
    phone: async (venueId: string): Promise<Page> => {
      const page = await file.page('phone');
      await openVenueBoard(page, file.t.baseUrl, file.owner, venueId);
      await boardLive(page);
      return page;
    },
  } as PhoneBoardFile;
  beforeAll(async () => {
    file.t = await startApp();
    file.browser = await launchChromium();
    file.owner = await signUp(file.t, ownerName);
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await file.browser?.close();
    await file.t?.close();
  });
  return file;
}
