import { describe, expect, it } from 'vitest';
import { expectOk } from '../../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../../testing/harness/loopback-server.js';
import { startTestCore } from '../../../testing/harness/test-core.js';

const METEO = '01a2008d-7401-7000-8000-068142ee20ea';

/**
 * These machines have no internet, so the network layer the core is given
 * sends Open-Meteo's hosts to a loopback server answering in Open-Meteo's
 * format. Everything from the tool definition up is the real thing.
 */
async function meteoCore() {
  const server = await startLoopbackServer({
    '/v1/search': (request, response) =>
      json(response, 200, {
        results: [{ name: 'Paris', latitude: 48.85341, longitude: 2.3488, country: 'France', timezone: 'Europe/Paris' }],
        generationtime_ms: 0.5,
      }),
    '/v1/forecast': (_request, response) =>
      json(response, 200, {
        latitude: 48.86,
        longitude: 2.35,
        current: { time: '2026-11-22T20:00', temperature_2m: 8.4, relative_humidity_2m: 81, wind_speed_10m: 11.2, weather_code: 3 },
      }),
  });
  const hosts: string[] = [];
  const loopbackFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    hosts.push(url.host);
    url.protocol = 'http:';
    url.host = server.host;
    return fetch(url, init);
  };
  const subject = await startTestCore({ fetch: loopbackFetch });
  return { subject, server, hosts };
}

describe('the Open-Meteo example bundle', () => {
  it('finds a place: the query the API expects, the results extracted', async () => {
    const { subject, server, hosts } = await meteoCore();
    const result = await subject.call('tools.invoke', { bundleID: METEO, toolSlug: 'geocode', version: 'v1', args: { name: 'Paris' } });
    expect(expectOk(result).value).toEqual([expect.objectContaining({ name: 'Paris', latitude: 48.85341 }) as unknown]);
    expect(hosts).toEqual(['geocoding-api.open-meteo.com']);
    expect(server.seen[0]!.url).toBe('/v1/search?name=Paris&count=5&language=en&format=json');
  });

  it('reads the current weather at a point', async () => {
    const { subject, server, hosts } = await meteoCore();
    const result = await subject.call('tools.invoke', {
      bundleID: METEO,
      toolSlug: 'forecast',
      version: 'v1',
      args: { latitude: 48.85, longitude: 2.35 },
    });
    expect(expectOk(result).value).toMatchObject({ temperature_2m: 8.4, weather_code: 3 });
    expect(hosts).toEqual(['api.open-meteo.com']);
    expect(decodeURIComponent(server.seen[0]!.url)).toBe(
      '/v1/forecast?latitude=48.85&longitude=2.35&current=temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code&timezone=auto',
    );
  });

  it('is refused once its hosts are taken off the allowlist', async () => {
    const { subject, hosts } = await meteoCore();
    await subject.call('settings.patch', { allowedHosts: [] });
    const result = await subject.call('tools.invoke', { bundleID: METEO, toolSlug: 'geocode', version: 'v1', args: { name: 'Paris' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'host_not_allowed' } });
    expect(hosts).toEqual([]);
  });
});
