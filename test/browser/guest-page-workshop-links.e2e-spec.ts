import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { joined, sandboxVenue, type Sandbox } from '../support/restaurant.js';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { describeWithChromium, launchChromium, newPhone, screenshot } from './chromium.js';

/** The page polls every 3 s; a change must show within this. */
const SHOW_BOUND = 10_000;
/** A restaurant's words: a party and its table (a seat pool queues groups and holds seats). */
const RESTAURANT_WORDS = /\bpart(y|ies)\b|\btables?\b|\bseated\b|\bhost\b/i;

const d = describeWithChromium('the guest page is tested in a real browser');

/**
 * A group member with only a phone (390×844) at a workshop of 13 seats with 7-minute holds, in
 * Kolkata time. The page named the group "group of 3" while it waited, yet when the organizer gave
 * the group a new code the old link's page asked "Did someone in your party confirm or leave on
 * their phone?", and a link to another group's place said "Only follow a link the desk gave your own
 * party." A restaurant's page keeps its words (guest-page.e2e-spec).
 */
d('a workshop group’s page, when its link is replaced or another group’s link is opened, speaks of its group', () => {
  let t: TestApp;
  let owner: Staff;
  let browser: Browser;
  let v: Sandbox;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'organizer');
    browser = await launchChromium();
    v = await sandboxVenue(t, owner, {
      name: 'Quandong Studio',
      timeZone: 'Asia/Kolkata',
      clock: '2026-12-11T09:40:00+05:30',
      preset: 'workshop',
      poolCapacity: 13,
      patch: { policy: { holdSeconds: 420 } },
    });
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await t?.close();
  });

  async function phone(): Promise<Page> {
    const context = await newPhone(browser);
    contexts.push(context);
    return context.newPage();
  }
  const state = (page: Page, s: string) =>
    page.locator(`[data-testid=guest-page][data-state=${s}]`).waitFor({ timeout: SHOW_BOUND });
  const noSidewaysScroll = async (page: Page): Promise<void> =>
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

  it('a replaced link says how to get back in the group’s and the organizer’s words', async () => {
    const group = await joined(t, owner, v.id, { name: 'Aroha Group', partySize: 3, email: 'aroha@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${group.queueToken ?? ''}`);
    await state(page, 'waiting');
    expect(await page.getByTestId('party').textContent()).toBe('Aroha Group, group of 3');
    await request(t.baseUrl).post(`/v1/venues/${v.id}/queue/${group.entry.id}/token`).set(owner.auth).send({}).expect(201);
    await state(page, 'gone');
    const said = await page.getByTestId('gone').innerText();
    expect(said).toContain('Did someone in your group confirm or leave on their phone? Their phone shows where you stand.');
    expect(said).toContain('the organizer gives you a new code to scan');
    expect({ said, leaks: RESTAURANT_WORDS.test(said) }).toEqual({ said, leaks: false });
    await noSidewaysScroll(page);
    await screenshot(page, 'guest-workshop-gone');
  });

  it('another group’s link asks which place to follow, in groups', async () => {
    const mine = await joined(t, owner, v.id, { name: 'Hine Group', partySize: 2, email: 'hine@example.test' });
    const other = await joined(t, owner, v.id, { name: 'Tama Group', partySize: 5, email: 'tama@example.test' });
    const page = await phone();
    await page.goto(`${t.baseUrl}/q/#${mine.queueToken ?? ''}`);
    await state(page, 'waiting');
    const sent = await page.context().newPage();
    await sent.goto(`${t.baseUrl}/q/#${other.queueToken ?? ''}`);
    await state(sent, 'choose');
    const asked = await sent.getByTestId('choose').innerText();
    expect(asked).toContain('Hine Group, group of 2');
    expect(asked).toContain('Tama Group, group of 5');
    expect(asked).toContain('Only follow a link the desk gave your own group.');
    expect({ asked, leaks: RESTAURANT_WORDS.test(asked) }).toEqual({ asked, leaks: false });
    await noSidewaysScroll(sent);
    await screenshot(sent, 'guest-workshop-choose');
  });
});
