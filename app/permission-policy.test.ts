import { describe, expect, it } from 'vitest';
import { grantsDevicePermission } from './permission-policy.js';

const place = { sandboxOrigin: 'http://127.0.0.1:41234', windowOrigin: 'app://toolbelt' };
const fromApp = { requestingUrl: 'about:srcdoc', isMainFrame: false, embeddingOrigin: 'app://toolbelt' };

describe('device permissions of the desktop app', () => {
  it('grants an app frame the features an app may declare (the window delegated them after the person allowed)', () => {
    expect(grantsDevicePermission({ ...fromApp, permission: 'media', mediaTypes: ['video'] }, place)).toBe(true);
    expect(grantsDevicePermission({ ...fromApp, permission: 'media', mediaTypes: ['audio', 'video'] }, place)).toBe(true);
    expect(grantsDevicePermission({ ...fromApp, permission: 'geolocation' }, place)).toBe(true);
    expect(grantsDevicePermission({ ...fromApp, permission: 'clipboard-sanitized-write' }, place)).toBe(true);
    // The relay page on the sandbox's origin, through which the grant reaches the app.
    expect(grantsDevicePermission({ ...fromApp, requestingUrl: `${place.sandboxOrigin}/app?host=app%3A%2F%2Ftoolbelt`, permission: 'geolocation' }, place)).toBe(true);
  });

  it('never grants the window itself, nor anything an app cannot declare', () => {
    expect(grantsDevicePermission({ permission: 'media', mediaTypes: ['video'], requestingUrl: 'app://toolbelt/index.html', isMainFrame: true }, place)).toBe(false);
    for (const permission of ['notifications', 'clipboard-read', 'display-capture', 'usb', 'hid', 'serial', 'openExternal', 'fullscreen', 'pointerLock']) {
      expect(grantsDevicePermission({ ...fromApp, permission }, place), permission).toBe(false);
    }
    // Screen capture also travels as "media" with no device named; it is not the camera.
    expect(grantsDevicePermission({ ...fromApp, permission: 'media' }, place)).toBe(false);
    expect(grantsDevicePermission({ ...fromApp, permission: 'media', mediaTypes: [] }, place)).toBe(false);
    expect(grantsDevicePermission({ ...fromApp, permission: 'media', mediaTypes: ['unknown'] }, place)).toBe(false);
  });

  it('grants nothing to frames that are not an app of this window', () => {
    // A page of the web framed somewhere, another loopback port, or the sandbox framed by something other than Toolbelt.
    expect(grantsDevicePermission({ ...fromApp, permission: 'geolocation', requestingUrl: 'https://example.com/' }, place)).toBe(false);
    expect(grantsDevicePermission({ ...fromApp, permission: 'geolocation', requestingUrl: 'http://127.0.0.1:41235/app' }, place)).toBe(false);
    expect(grantsDevicePermission({ ...fromApp, permission: 'geolocation', requestingUrl: undefined }, place)).toBe(false);
    expect(grantsDevicePermission({ ...fromApp, permission: 'geolocation', requestingUrl: 'not a url' }, place)).toBe(false);
    expect(grantsDevicePermission({ ...fromApp, permission: 'geolocation', embeddingOrigin: 'https://evil.example' }, place)).toBe(false);
  });
});
