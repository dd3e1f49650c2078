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

  it('reads lines ended by CR, LF and CRLF mixed, a CRLF split between chunks included', () => {
    const text = 'data: a\n\r\nevent: b\rdata: c\r\n\rdata: d\r\n\r\n';
    const expected = [
      { event: 'message', data: 'a' },
      { event: 'b', data: 'c' },
      { event: 'message', data: 'd' },
    ];
    for (let split = 1; split < text.length; split++) {
      const parse = createSseParser();
      expect([...parse(text.slice(0, split)), ...parse(text.slice(split))], `split at ${split}`).toEqual(expected);
    }
  });

  it('reads thousands of events in one chunk, as a fast stream delivers them', () => {
    const parse = createSseParser();
    const chunk = Array.from({ length: 5000 }, (_, index) => `data: ${index}\n\n`).join('');
    const events = parse(chunk);
    expect(events).toHaveLength(5000);
    expect(events.at(-1)).toEqual({ event: 'message', data: '4999' });
  });
});
