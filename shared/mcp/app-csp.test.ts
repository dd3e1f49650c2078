import { describe, expect, it } from 'vitest';
import { allowAttribute, appCsp, appPermissions, declaredOrigins, permissionsObject } from './app-csp.js';

describe('the policy an MCP App runs under', () => {
  it('allows nothing from the network when the resource declares nothing', () => {
    const policy = appCsp(undefined);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'none'");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("script-src 'self' 'unsafe-inline' data: blob:;");
    expect(policy).not.toMatch(/https?:/);
  });

  it('adds what the resource declares, each list to its own directives', () => {
    const policy = appCsp({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'], frameDomains: ['https://*.youtube.com'] });
    expect(policy).toContain("connect-src https://api.example.com;");
    expect(policy).toContain("script-src 'self' 'unsafe-inline' data: blob: https://cdn.example.com;");
    expect(policy).toContain("img-src data: blob: https://cdn.example.com;");
    expect(policy).toContain('frame-src https://*.youtube.com;');
    expect(policy).toContain("base-uri 'none'");
  });

  it('drops what is not a plain origin: a domain cannot write a rule of its own', () => {
    expect(declaredOrigins(['https://ok.example.com', "https://x.com; script-src 'unsafe-eval'", "'unsafe-eval'", '*', 'https://*', 'javascript:alert(1)', 'https://a.com/path', 42, 'HTTPS://Upper.Example.com:8443'])).toEqual([
      'https://ok.example.com',
      'https://upper.example.com:8443',
    ]);
    expect(declaredOrigins('https://x.com')).toEqual([]);
    expect(declaredOrigins(Array.from({ length: 1000 }, (_, index) => `https://h${index}.example.com`))).toHaveLength(32);
  });

  it('turns declared permissions into the iframe allow list, unknown ones aside', () => {
    expect(appPermissions({ camera: {}, geolocation: {}, clipboardWrite: {}, usb: {} })).toEqual(['camera', 'geolocation', 'clipboard-write']);
    expect(appPermissions(undefined)).toEqual([]);
    expect(appPermissions({ microphone: false })).toEqual([]);
  });

  it('passes on only known features: back in the spec’s shape, and as an allow attribute no other text gets into', () => {
    expect(permissionsObject(['camera', 'clipboard-write', 'usb'])).toEqual({ camera: {}, clipboardWrite: {} });
    expect(allowAttribute({ camera: {}, microphone: {} })).toBe('camera *; microphone *');
    // What arrives in a message is not trusted to be the shape it should be.
    expect(allowAttribute({ 'camera *; usb': {}, usb: {} })).toBe('');
    expect(allowAttribute('camera')).toBe('');
    expect(allowAttribute(null)).toBe('');
  });
});
