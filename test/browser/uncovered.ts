import type { Page } from 'playwright-core';

/**
 * Whether the first element `selector` finds is whole on the screen with nothing over it (a notice,
 * a bar, a sheet): the element itself answers a tap at its top, middle and foot.
 */
export async function uncovered(page: Page, selector: string): Promise<boolean> {
  return (await page.evaluate(
    `(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return false; const r = e.getBoundingClientRect(); const x = r.left + r.width / 2; return [r.top + 2, r.top + r.height / 2, r.bottom - 2].every((y) => { if (y < 0 || y > innerHeight) return false; const at = document.elementFromPoint(x, y); return !!at && (at === e || e.contains(at)); }); })()`,
  )) as boolean;
}
