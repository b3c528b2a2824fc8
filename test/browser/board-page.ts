import type { Page } from 'playwright-core';

/** Who signs in: a staff member's email and password (a `Staff` from test/support/staff.ts). */
export interface Credentials {
  email: string;
  password: string;
}

/**
 * Opens the board page at `path` (the venue list unless told) and sends its sign-in form as `who`.
 * Waits for nothing after: the caller waits for what it needs (the venue list, a board, a refusal).
 */
export async function signInOnBoard(page: Page, baseUrl: string, who: Credentials, path = '/board'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.fill('input[name=email]', who.email);
  await page.fill('input[name=password]', who.password);
  await page.click('button[type=submit]');
}

/**
 * Signs `who` in on the venue list and waits until the list shows the venue: for a test that goes
 * on to one of the venue's tabs by its address.
 */
export async function signInToVenueList(
  page: Page,
  baseUrl: string,
  who: Credentials,
  venueId: string,
  timeout?: number,
): Promise<void> {
  await signInOnBoard(page, baseUrl, who);
  await page.locator(`[data-venue-id="${venueId}"]`).waitFor({ timeout });
}

/** Signs `who` in on the venue list and opens the venue's board (not yet live: see `boardLive`). */
export async function openVenueBoard(page: Page, baseUrl: string, who: Credentials, venueId: string): Promise<void> {
  await signInOnBoard(page, baseUrl, who);
  await page.click(`[data-venue-id="${venueId}"]`);
}

/** Waits until the board says it is live (subscribed and up to date); Playwright's timeout unless told. */
export function boardLive(page: Page, timeout?: number): Promise<void> {
  return page.locator('[data-testid=connection][data-state=live]').waitFor({ timeout });
}
