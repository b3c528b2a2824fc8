import { unknownOutcome } from './sms.adapter.js';

const undiciError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe('unknownOutcome: a hand-over whose answer never came, in words a manager reads', () => {
  it('names a provider that did not answer in time, whichever part of the answer it was', () => {
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])
      expect(unknownOutcome(undiciError(code, 'Headers Timeout Error'))).toBe(
        'the text provider did not answer within 10 seconds: the guest may have the text; it is not sent again, so it cannot arrive twice',
      );
  });

  it('names a connection closed before the answer', () => {
    for (const code of ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'])
      expect(unknownOutcome(undiciError(code, 'other side closed'))).toBe(
        'the text provider closed the connection without answering: the guest may have the text; it is not sent again, so it cannot arrive twice',
      );
  });

  it('leaves any other error to the caller', () => {
    expect(unknownOutcome(undiciError('UND_ERR_INVALID_ARG', 'invalid'))).toBeNull();
    expect(unknownOutcome(new Error('boom'))).toBeNull();
  });
});
