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

  it('trusts IPC only from our own top frame showing the app', () => {
    const trusted = { frameUrl: 'app://toolbelt/index.html', isMainFrame: true, fromOwnWindow: true };
    expect(isTrustedSender(trusted)).toBe(true);
    expect(isTrustedSender({ ...trusted, isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ ...trusted, fromOwnWindow: false })).toBe(false);
    expect(isTrustedSender({ ...trusted, frameUrl: 'https://evil.example/' })).toBe(false);
    expect(isTrustedSender({ ...trusted, frameUrl: null })).toBe(false);
  });
});
