import { nextMessageId } from './message-id.js';

describe('nextMessageId', () => {
  it('is a version 7 UUID', () => {
    expect(nextMessageId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('sorts in the order made, thousands within one millisecond included', () => {
    const ids = Array.from({ length: 10_000 }, () => nextMessageId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
