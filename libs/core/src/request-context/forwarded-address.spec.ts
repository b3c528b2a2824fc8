import { forwardedAddress } from './forwarded-address.js';

describe('forwardedAddress', () => {
  it.each<[string, string | undefined, boolean | number | string[], string]>([
    ['192.0.2.7', '198.51.100.3', false, '192.0.2.7'],
    ['127.0.0.1', '198.51.100.3', ['loopback'], '198.51.100.3'],
    ['::ffff:127.0.0.1', '198.51.100.3', ['loopback'], '198.51.100.3'],
    ['192.0.2.7', '198.51.100.3', ['loopback'], '192.0.2.7'],
    ['10.1.2.3', '203.0.113.9, 172.16.4.4', ['uniquelocal'], '203.0.113.9'],
    ['10.1.2.3', '203.0.113.9, 172.16.4.4', ['10.0.0.0/255.0.0.0'], '172.16.4.4'],
    ['10.1.2.3', '203.0.113.9, 172.16.4.4', ['10.1.2.3', '172.16.0.0/12'], '203.0.113.9'],
    ['10.1.2.3', '203.0.113.9, 172.16.4.4', 1, '172.16.4.4'],
    ['10.1.2.3', '203.0.113.9, 172.16.4.4', 2, '203.0.113.9'],
    ['10.1.2.3', '203.0.113.9, 172.16.4.4', 5, '203.0.113.9'],
    ['::1', '2001:db8::5', ['loopback'], '2001:db8::5'],
    ['127.0.0.1', undefined, ['loopback'], '127.0.0.1'],
    ['127.0.0.1', 'not-an-address, 127.0.0.2', ['loopback'], 'not-an-address'],
  ])('%s forwarding %s, trusting %j: %s', (remote, header, trust, expected) => {
    expect(forwardedAddress(remote, header, trust)).toBe(expected);
  });
});
