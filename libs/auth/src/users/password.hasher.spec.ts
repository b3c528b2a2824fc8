import { loadConfig } from '@hostboard/core';
import { PasswordHasher } from './password.hasher.js';

describe('PasswordHasher', () => {
  const standard = new PasswordHasher(loadConfig({}));
  const cheap = new PasswordHasher(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: 'test' }));

  it('hashes with argon2id at 19 MiB and two passes by default, at 1 MiB and one pass for tests', async () => {
    expect(await standard.hash('correct horse battery staple')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await cheap.hash('correct horse battery staple')).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
  });

  it('verifies a hash by the parameters it records, whichever cost made it, and refuses a wrong or unknown password', async () => {
    const made = await standard.hash('correct horse battery staple');
    expect(await cheap.verify(made, 'correct horse battery staple')).toBe(true);
    expect(await standard.verify(await cheap.hash('tr0ub4dor&3'), 'tr0ub4dor&3')).toBe(true);
    expect(await standard.verify(made, 'correct horse battery stapler')).toBe(false);
    expect(await standard.verify(undefined, 'correct horse battery staple')).toBe(false);
  });

  it('is refused outside NODE_ENV=test', () => {
    for (const NODE_ENV of ['production', 'development']) {
      expect(() => loadConfig({ NODE_ENV, PASSWORD_HASH_COST: 'test' })).toThrow(/PASSWORD_HASH_COST=test is only for NODE_ENV=test/);
    }
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'low' })).toThrow(/Configuration error/);
  });
});
