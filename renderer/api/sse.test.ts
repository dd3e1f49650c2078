import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse.js';

describe('server-sent events parser', () => {
  it('returns whole events and skips comments', () => {
    const parse = createSseParser();
    expect(parse(': connected\n\nevent: app.heartbeat\ndata: {"a":1}\n\n')).toEqual([
      { event: 'app.heartbeat', data: '{"a":1}' },
    ]);
  });

  it('keeps a partial event until the rest arrives, across any split', () => {
    const text = 'event: x\ndata: {"long":"value"}\n\nevent: y\ndata: 2\n\n';
    for (let split = 1; split < text.length; split++) {
      const parse = createSseParser();
      const events = [...parse(text.slice(0, split)), ...parse(text.slice(split))];
      expect(events, `split at ${split}`).toEqual([
        { event: 'x', data: '{"long":"value"}' },
        { event: 'y', data: '2' },
      ]);
    }
  });

  it('joins multi-line data, accepts CRLF, and defaults the event name', () => {
    const parse = createSseParser();
    expect(parse('data: one\r\ndata: two\r\n\r\n')).toEqual([{ event: 'message', data: 'one\ntwo' }]);
  });
});
