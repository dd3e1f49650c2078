import { describe, expect, it } from 'vitest';
import { checkPrerequisites, prerequisitesLine } from './prerequisites.mjs';

describe("npm test's prerequisites line", () => {
  it('names what is missing and how to get it, and whether e2e fails or is skipped', () => {
    const line = prerequisitesLine({ chromium: null, httpbin: false, requireE2E: true });
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('Chromium MISSING (`apt-get install chromium`');
    expect(line).toContain('the e2e tier fails without it');
    expect(line).toContain('python3-httpbin MISSING (`apt-get install python3-httpbin`');
    expect(prerequisitesLine({ chromium: null, httpbin: true, requireE2E: false })).toContain('the e2e tier is skipped without it');
  });

  it('names the Chromium it found on this machine', () => {
    const line = checkPrerequisites({ PLAYWRIGHT_CHROMIUM_EXECUTABLE: process.execPath });
    expect(line).toContain(`Chromium ${process.execPath}`);
  });
});
