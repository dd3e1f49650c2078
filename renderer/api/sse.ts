export interface ServerSentEvent {
  event: string;
  data: string;
}

const COLON = 58;
const SPACE = 32;

/**
 * Incremental parser for text/event-stream (the WHATWG format): feed it
 * decoded chunks as they arrive, get whole events back. Lines may end in
 * CRLF, LF or CR, mixed; comments (keep-alives) and fields other than
 * event/data are ignored. Each line is read once, however many events one
 * chunk holds (a fast stream delivers thousands per read).
 */
export function createSseParser(): (chunk: string) => ServerSentEvent[] {
  const lineEnd = /\r\n|\n|\r/g;
  let pending = '';
  let event = 'message';
  let data: string[] = [];
  return (chunk) => {
    const text = pending + chunk;
    const events: ServerSentEvent[] = [];
    let start = 0;
    lineEnd.lastIndex = 0;
    for (let end = lineEnd.exec(text); end; end = lineEnd.exec(text)) {
      // A CR that ends the chunk may be the first half of a CRLF: read its line with the next chunk.
      if (end[0] === '\r' && end.index === text.length - 1) break;
      const line = text.slice(start, end.index);
      start = lineEnd.lastIndex;
      if (line === '') {
        if (data.length > 0) events.push({ event, data: data.join('\n') });
        event = 'message';
        data = [];
        continue;
      }
      if (line.charCodeAt(0) === COLON) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const valueStart = colon === -1 ? line.length : line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
      if (field === 'data') data.push(line.slice(valueStart));
      else if (field === 'event') event = line.slice(valueStart);
    }
    pending = text.slice(start);
    return events;
  };
}
