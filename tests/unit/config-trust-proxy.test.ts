/**
 * TRUST_PROXY (src-server/config.ts): the proxies whose X-Forwarded-For the server believes. Unset, none;
 * a list of addresses, CIDR ranges and proxy-addr's names is kept as a list; anything else stops the start
 * with a message naming the variable. Behind nginx it is exercised by tests/api/cluster.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src-server/config';

describe('TRUST_PROXY', () => {
  it('is unset by default: no proxy is believed', () => {
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
  });

  it('takes addresses, CIDR ranges and the named ranges, separated by commas', () => {
    expect(
      loadConfig({ TRUST_PROXY: ' 10.0.0.5, 192.168.0.0/16,::1 ,fd00::/8,loopback' }).TRUST_PROXY,
    ).toEqual(['10.0.0.5', '192.168.0.0/16', '::1', 'fd00::/8', 'loopback']);
  });

  it.each(['true', '*', 'nginx.internal', '10.0.0.0/33', '::1/129', '10.0.0.1/8/8', '10.0.0.0/x'])(
    'refuses %s, naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );
});
