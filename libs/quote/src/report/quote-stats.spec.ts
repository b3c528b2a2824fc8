import { modelStats } from './quote-stats.js';

describe('quote accuracy figures', () => {
  it('the worked example: quoted 60 and 120 against actual 2 and 7', () => {
    expect(
      modelStats([
        { quoted: 60, actual: 2 },
        { quoted: 120, actual: 7 },
      ]),
    ).toEqual({ count: 2, maeMinutes: 85.5, biasMinutes: 85.5, within5: 0, within10: 0 });
  });

  it('signs, shares and one decimal', () => {
    expect(
      modelStats([
        { quoted: 5, actual: 2 },
        { quoted: 5, actual: 12 },
        { quoted: 20, actual: 11.5 },
        { quoted: null, actual: 3 },
      ]),
    ).toEqual({ count: 3, maeMinutes: 6.2, biasMinutes: 1.5, within5: 33.3, within10: 100 });
  });

  it('nothing to measure', () => {
    expect(modelStats([])).toEqual({ count: 0, maeMinutes: null, biasMinutes: null, within5: null, within10: null });
  });
});
