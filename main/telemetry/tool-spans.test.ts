import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { waitFor } from '../../testing/harness/mcp-share-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { manualClock, startTestCore } from '../../testing/harness/test-core.js';
import { timedApi } from '../../testing/harness/timed-api.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpan {
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
  status?: { code?: number; message?: string };
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const attributes = (list: { key: string; value: OtlpValue }[]) => Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? Number(value.intValue)]));

describe('tool calls as OpenTelemetry spans (OTLP/HTTP)', () => {
  it('sends an execute_tool span per call to the endpoint the person set, with the GenAI conventions’ names, and none without one', async () => {
    const clock = manualClock();
    // A local OTLP/HTTP receiver: it takes what the official exporter posts to /v1/traces, as a collector would.
    const receiver = await startLoopbackServer({ '/v1/traces': (_request, response) => json(response, 200, {}) });
    const spans = () =>
      receiver.requestsTo('/v1/traces').flatMap((request) => {
        const body = JSON.parse(request.body.toString('utf8')) as OtlpExport;
        return body.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ span, resource: attributes(resource.resource.attributes) }))));
      });
    const subject = await startTestCore({ clock });
    const bundleID = newID();
    const { work } = await timedApi(subject, clock, bundleID);
    await subject.call('settings.patch', { otlpTracesUrl: `${receiver.base}/v1/traces` });

    await work(40);
    await work(7, 'yes');
    const sent = await waitFor(async () => spans(), (list) => list.length >= 2);
    expect(sent.map(({ span }) => span.name)).toEqual(['execute_tool work', 'execute_tool work']);
    const [ok, failed] = sent.map(({ span }) => span);
    expect(attributes(ok!.attributes)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'work',
      'gen_ai.tool.description': 'Does some work.',
      'gen_ai.tool.type': 'function',
      'toolbelt.bundle': 'jobs',
      'toolbelt.caller': 'person',
    });
    // Its time is the call's, on the core's clock.
    expect((BigInt(ok!.endTimeUnixNano) - BigInt(ok!.startTimeUnixNano)) / 1_000_000n).toBe(40n);
    expect(ok!.kind).toBe(1);
    expect(ok!.status?.code ?? 0).toBe(0);
    expect(attributes(failed!.attributes)).toMatchObject({ 'error.type': 'http_status' });
    expect(failed!.status?.code).toBe(2);
    expect(sent[0]!.resource).toMatchObject({ 'service.name': 'toolbelt', 'service.version': '0.0.0-test' });
    // Neither the arguments nor the answer leave, not even inside an error's message: they may hold what the person keeps to themselves.
    expect(JSON.stringify(sent)).not.toContain('"done"');
    expect(JSON.stringify(sent)).not.toMatch(/"ms"|fail=yes/);

    // No endpoint: nothing is sent. Set again: only what came after it.
    await subject.call('settings.patch', { otlpTracesUrl: '' });
    await work(1);
    await subject.call('settings.patch', { otlpTracesUrl: `${receiver.base}/v1/traces` });
    await work(3);
    const later = await waitFor(async () => spans(), (list) => list.length >= 3);
    await subject.core.close();
    expect(spans()).toHaveLength(3);
    expect((BigInt(later[2]!.span.endTimeUnixNano) - BigInt(later[2]!.span.startTimeUnixNano)) / 1_000_000n).toBe(3n);
  });
});
