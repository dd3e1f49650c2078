export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Incremental parser for text/event-stream (the WHATWG format): feed it
 * decoded chunks as they arrive, get whole events back. Comments (keep-alives)
 * and fields other than event/data are ignored.
 */
export function createSseParser(): (chunk: string) => ServerSentEvent[] {
  let buffer = '';
  return (chunk) => {
    buffer += chunk;
    const events: ServerSentEvent[] = [];
    let boundary: RegExpExecArray | null;
    const separator = /\r\n\r\n|\n\n|\r\r/;
    while ((boundary = separator.exec(buffer))) {
      const block = buffer.slice(0, boundary.index);
      buffer = buffer.slice(boundary.index + boundary[0].length);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r\n|\n|\r/)) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) events.push({ event, data: data.join('\n') });
    }
    return events;
  };
}
