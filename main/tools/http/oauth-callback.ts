import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLimitedServer } from '../../common/listener-limits.js';
import { ownAuthorities } from '../../common/listener-checks.js';

/**
 * What the browser brought back: the code, and the query as sent, whose `iss` (RFC 9207) names the authorization
 * server that answered, checked by whoever trades the code (a mix-up defence).
 */
export interface SignInAnswer {
  code: string;
  query: URLSearchParams;
}

/** A sign-in that ended before a code came back (refused, timed out, Toolbelt closing): its message says why, in words for the person. */
export class SignInEnded extends Error {}

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const WAIT_MS = 10 * 60_000;

interface Waiting {
  resolve: (answer: SignInAnswer) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The loopback redirect of OAuth sign-ins (RFC 8252): listeners on
 * 127.0.0.1, started at the first sign-in that needs one, routing each
 * redirect to the sign-in that is waiting for its `state`. Anything else is
 * a 404; a redirect with an unknown state changes nothing. A sign-in whose
 * provider registered one port gets a listener on that port.
 */
export class OAuthCallbackServer {
  /** By the port they listen on, once up; 0 while one on any port starts. */
  private readonly listeners = new Map<number, Promise<{ server: Server; url: string }>>();
  private readonly waiting = new Map<string, Waiting>();

  /**
   * The redirect URL: on `port` when it is free (a registration names it),
   * else — unless `strict` — on any port, sharing a listener already up.
   */
  async start(port?: number, strict = false): Promise<string> {
    if (port !== undefined) {
      const onPort = this.listeners.get(port);
      if (onPort) return (await onPort).url;
      try {
        return (await this.listen(port)).url;
      } catch (error) {
        if (strict || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      }
    }
    const any = this.listeners.values().next().value;
    return (await (any ?? this.listen(0))).url;
  }

  private listen(port: number): Promise<{ server: Server; url: string }> {
    const listening = new Promise<{ server: Server; url: string }>((resolve, reject) => {
      const server = createLimitedServer(undefined, (request, response) => this.answer(request, response));
      server.once('error', (error) => {
        this.listeners.delete(port);
        reject(error);
      });
      server.listen(port, '127.0.0.1', () => {
        const actual = (server.address() as AddressInfo).port;
        if (port === 0) {
          this.listeners.delete(0);
          this.listeners.set(actual, listening);
        }
        resolve({ server, url: `http://127.0.0.1:${actual}/callback` });
      });
    });
    this.listeners.set(port, listening);
    return listening;
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, title: string, text: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' });
      response.end(page(title, text));
    };
    if (request.method !== 'GET' || url.pathname !== '/callback') return send(404, 'Not found', 'There is nothing here.');
    // The browser comes back to the address Toolbelt gave: a valid state under another Host is a page replaying it (DNS rebinding).
    if (!ownAuthorities(request.socket.localPort ?? 0)((request.headers.host ?? '').toLowerCase())) return send(403, 'Not this address', 'This sign-in page answers only at the address Toolbelt opened.');
    const state = url.searchParams.get('state') ?? '';
    const entry = this.waiting.get(state);
    if (!entry) return send(400, 'Sign-in not expected', 'Toolbelt is not waiting for this sign-in. Start it again from Toolbelt.');
    this.waiting.delete(state);
    clearTimeout(entry.timer);
    const code = url.searchParams.get('code');
    if (!code) {
      const said = url.searchParams.get('error_description') ?? url.searchParams.get('error') ?? 'no code was given';
      entry.reject(new SignInEnded(`the sign-in was refused: ${said}`));
      return send(400, 'Sign-in failed', `The server said: ${said}. Go back to Toolbelt to try again.`);
    }
    entry.resolve({ code, query: url.searchParams });
    send(200, 'Signed in', 'You are signed in. You can close this tab and go back to Toolbelt.');
  }

  /** What the browser brings back for this state; fails after ten minutes. */
  expect(state: string): Promise<SignInAnswer> {
    return new Promise<SignInAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(state);
        reject(new SignInEnded('nobody signed in within 10 minutes'));
      }, WAIT_MS);
      timer.unref();
      this.waiting.set(state, { resolve, reject, timer });
    });
  }

  async close(): Promise<void> {
    for (const [state, entry] of this.waiting) {
      clearTimeout(entry.timer);
      entry.reject(new SignInEnded('Toolbelt is closing'));
      this.waiting.delete(state);
    }
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    await Promise.all(
      listeners.map(async (listening) => {
        const up = await listening.catch(() => null);
        if (up) await new Promise<void>((resolve) => up.server.close(() => resolve()));
      }),
    );
  }
}

/** Text from the query string (the server's error) goes into the page as text, never as markup. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(title: string, text: string): string {
  title = escapeHtml(title);
  text = escapeHtml(text);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — Toolbelt</title><style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#222}@media (prefers-color-scheme:dark){body{background:#15171c;color:#eee}}</style></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
}
