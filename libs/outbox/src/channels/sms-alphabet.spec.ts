import { inSmsAlphabet } from './sms-alphabet.js';

describe('inSmsAlphabet', () => {
  it('writes dashes, curly quotes, ellipses and no-break spaces as their GSM-7 twins', () => {
    expect(inSmsAlphabet('Joe’s: Nothing lost — the place was kept… “soon” – 6:05\u202FPM\u00A0CST')).toBe(
      'Joe\'s: Nothing lost - the place was kept... "soon" - 6:05 PM CST',
    );
  });

  it('keeps every other character, letters of a name included', () => {
    for (const text of ['Café Noël: your table is ready.', 'Ταβέρνα', '東京', 'plain text, 100% (approx)'])
      expect(inSmsAlphabet(text)).toBe(text);
  });
});
