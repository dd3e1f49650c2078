import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, externalUrlToOpen, isAppUrl, isTrustedSender } from './url-policy.js';

describe('url policy', () => {
  it('recognises only app://toolbelt as the app', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('app://toolbelt/settings')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('https://toolbelt')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('opens plain web links in the system browser', () => {
    expect(externalUrlToOpen('https://example.com/docs?a=1')).toBe('https://example.com/docs?a=1');
    expect(externalUrlToOpen('http://example.com')).toBe('http://example.com/');
  });

  it('refuses links that are not plain web pages', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      'ms-settings:privacy',
      'https://user:pass@example.com',
      'http://localhost:3000',
      'http://127.0.0.1:8080/admin',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'garbage',
    ]) {
      expect(externalUrlToOpen(url), url).toBeNull();
    }
  });

  it.each([
    ['http://localhost./', 'trailing dot'],
    ['http://LOCALHOST..:80/', 'upper case, two trailing dots'],
    ['http://app.localhost/', 'a .localhost name'],
    ['http://127.0.0.1./', 'IPv4 with a trailing dot'],
    ['http://127.1/', 'short IPv4'],
    ['http://2130706433/', 'IPv4 as one number'],
    ['http://0x7f.0.0.1/', 'hexadecimal IPv4'],
    ['http://0177.0.0.1/', 'octal IPv4'],
    ['http://0.0.0.0:8000/', 'unspecified IPv4'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped IPv6 loopback'],
    ['http://[::ffff:7f00:1]/', 'IPv4-mapped IPv6 loopback, hex'],
    ['http://[::ffff:169.254.169.254]/', 'IPv4-mapped link-local'],
    ['http://[0:0:0:0:0:0:0:1]/', 'IPv6 loopback written out'],
    ['http://[::]/', 'unspecified IPv6'],
    ['http://[fe80::1]/', 'IPv6 link-local'],
    ['http://[FE80::abcd%25eth0]/', 'IPv6 link-local with a zone'],
    ['http://169.254.169.254./latest', 'cloud metadata with a trailing dot'],
  ])('refuses %s (%s)', (url) => {
    expect(externalUrlToOpen(url)).toBeNull();
  });

  it.each([
    ['https://example.com./docs', 'a public name with a trailing dot'],
    ['http://[2001:db8::1]/', 'a public IPv6 address'],
    ['http://8.8.8.8/', 'a public IPv4 address'],
    ['http://localhost.example.com/', 'a name that only starts with localhost'],
  ])('opens %s (%s)', (url) => {
    expect(externalUrlToOpen(url)).not.toBeNull();
  });

  it('trusts IPC only from our own top frame showing the app', () => {
    const trusted = { frameUrl: 'app://toolbelt/index.html', isMainFrame: true, fromOwnWindow: true };
    expect(isTrustedSender(trusted)).toBe(true);
    expect(isTrustedSender({ ...trusted, isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ ...trusted, fromOwnWindow: false })).toBe(false);
    expect(isTrustedSender({ ...trusted, frameUrl: 'https://evil.example/' })).toBe(false);
    expect(isTrustedSender({ ...trusted, frameUrl: null })).toBe(false);
  });
});
