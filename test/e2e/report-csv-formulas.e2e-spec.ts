import request from 'supertest';
import { startApp, type TestApp } from '../support/test-app.js';
import { signUp, type Staff } from '../support/staff.js';
import { moveClock, publicJoin, sandboxVenue, type JoinBody, type Sandbox } from '../support/restaurant.js';

/**
 * The quote report's CSV is opened by a manager in a spreadsheet, and a party's name is whatever a
 * stranger typed into the public join. No cell may start a formula, whichever list separator the
 * spreadsheet splits on: Excel set to a semicolon separator (France, Germany, much of Europe) cuts
 * a line at every ';', and a double quote opens a quoted cell only at a cell's start, so a name
 * quoted for the comma reading still starts new cells at its semicolons.
 */
const DAY = '2026-06-12';
const at = (hhmm: string): string => new Date(`${DAY}T${hhmm}:00-05:00`).toISOString();

/** The cells of one line as a spreadsheet splits it on `sep`: a quote is special only at a cell's start. */
function cells(line: string, sep: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i += 1;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (line[i] === '"') {
          i += 1;
          break;
        } else v += line[i++];
      }
      // Whatever follows a closing quote up to the separator stays in the cell.
      const end = line.indexOf(sep, i);
      v += line.slice(i, end === -1 ? line.length : end);
      out.push(v);
      i = end === -1 ? line.length + 1 : end + 1;
    } else {
      const end = line.indexOf(sep, i);
      out.push(line.slice(i, end === -1 ? line.length : end));
      i = end === -1 ? line.length + 1 : end + 1;
    }
  }
  return out;
}

const FORMULA = /^\s*[=+\-@]/;

describe('the quote report CSV: a party name starts no formula in any spreadsheet', () => {
  let t: TestApp;
  let owner: Staff;
  let v: Sandbox;
  const names = [
    '=HYPERLINK("http://evil.example","Open")',
    'Ana;=HYPERLINK(CHAR(104)&CHAR(116)&CHAR(116)&CHAR(112))',
    'Bo;@SUM(1+1);x',
    "Cy; +cmd|' /C calc'!A0",
    'Di;-2+3',
  ];

  beforeAll(async () => {
    t = await startApp();
    owner = await signUp(t, 'csv-owner');
    v = await sandboxVenue(t, owner, {
      clock: at('18:00'),
      published: true,
      tables: names.map((_, i) => ({ label: `T${i + 1}`, capacity: 2 })),
    });
    const joins: JoinBody[] = [];
    for (const name of names)
      joins.push(
        (await publicJoin(t, v.slug, { name, partySize: 2, email: `guest-${joins.length}@example.test` }).expect(201))
          .body as JoinBody,
      );
    await moveClock(t, owner, v.id, at('18:05'));
    for (const [i, j] of joins.entries()) {
      await request(t.baseUrl)
        .post(`/v1/venues/${v.id}/offers`)
        .set(owner.auth)
        .send({ entryId: j.entry.id, entryVersion: j.entry.version, tableIds: [v.tableIds[`T${i + 1}`]] })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  it.each([
    ['comma', ','],
    ['semicolon', ';'],
  ])('read with a %s separator', async (_what, sep) => {
    const res = await request(t.baseUrl)
      .get(`/v1/venues/${v.id}/reports/quotes.csv?from=${DAY}&to=${DAY}`)
      .set(owner.auth)
      .expect(200);
    const lines = res.text.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(names.length);
    const formulas = lines.flatMap((l) => cells(l, sep)).filter((c) => FORMULA.test(c));
    expect(formulas).toEqual([]);
    // The comma reading still gives each name whole, readable after the apostrophe that defuses it.
    if (sep === ',') {
      const shown = lines.map((l) => cells(l, ',')[3]);
      expect(shown.map((s) => s?.replace(/'(?=\s*[=+\-@])/g, '')).sort()).toEqual([...names].sort());
    }
  });
});
