import { copyFileSync, mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { joined, sandboxVenue } from '../support/restaurant.js';
import { describeWithChromium, screenshot } from './chromium.js';
import { phoneBoardFile } from './phone-board-file.js';

const d = describeWithChromium('the seats panel of a seat pool is tested in a real browser');

/**
 * A workshop organizer on a 390×844 phone whose every group holds seats: the seats panel read
 * "Nobody is waiting for seats." over a Promote next group that still took a tap, and answered "The
 * queue is empty." under a queue listing two groups whose seats were held. With nobody waiting it
 * is off; a group joining on another screen turns it on again. A 17-seat pool, 20-minute holds.
 */
d('a seat pool with nobody waiting', () => {
  const file = phoneBoardFile('organizer');
  const notice = (page: Page, text: string) => page.locator('[data-testid=notice]', { hasText: text });

  it('phone 390×844: Promote next group is off while nobody waits, and on again once a group joins', async () => {
    const v = await sandboxVenue(file.t, file.owner, {
      name: 'Birch Hall Letterpress',
      timeZone: 'America/Denver',
      clock: '2026-10-09T09:12:00-06:00',
      preset: 'workshop',
      poolCapacity: 17,
      patch: { policy: { holdSeconds: 1200 } },
    });
    await joined(file.t, file.owner, v.id, { name: 'Fern Circle', partySize: 6, email: 'fern@example.test' });
    await joined(file.t, file.owner, v.id, { name: 'Moss Row', partySize: 4, email: 'moss@example.test' });
    const page = await file.phone(v.id);
    const promote = page.getByTestId('promote');
    for (const name of ['Fern Circle', 'Moss Row']) {
      await promote.click();
      await notice(page, `Seats held for ${name}`).waitFor();
    }
    await page.locator('[data-testid=head]', { hasText: 'Nobody is waiting for seats.' }).waitFor();
    // The last tap's own request and re-read are over (the button is off while they run).
    await page.locator('[data-testid=promote][aria-busy=false]').waitFor();
    expect(await page.getByTestId('count-held').textContent()).toBe('10');
    expect(await promote.isDisabled()).toBe(true);
    await page.getByTestId('counts').scrollIntoViewIfNeeded();
    const path = await screenshot(page, 'board-pool-promote-none');
    mkdirSync('/tmp/bb-floor', { recursive: true });
    copyFileSync(path, '/tmp/bb-floor/board-pool-promote-none.png');
    expect(await notice(page, 'The queue is empty.').count()).toBe(0);

    // Another screen adds a group: the panel names it, and the button takes a tap again.
    await joined(file.t, file.owner, v.id, { name: 'Sorrel Trio', partySize: 3, email: 'sorrel@example.test' });
    await page.locator('[data-testid=head]', { hasText: 'Sorrel Trio' }).waitFor({ timeout: 10_000 });
    expect(await promote.isDisabled()).toBe(false);
    await promote.click();
    await notice(page, 'Seats held for Sorrel Trio').waitFor();
  }, 90_000);
});
