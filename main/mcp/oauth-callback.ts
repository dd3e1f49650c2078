import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";
const WAIT_MS = 10 * 60_000;

interface Waiting {
  resolve: (code: string) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The loopback redirect of OAuth sign-ins (RFC 8252): one listener on
 * 127.0.0.1, started at the first sign-in, routing each redirect to the
 * sign-in that is waiting for its `state`. Anything else is a 404; a
 * redirect with an unknown state changes nothing.
 */
export class OAuthCallbackServer {
  private server: Server | null = null;
  private listening: Promise<string> | null = null;
  private readonly waiting = new Map<string, Waiting>();

  /** The redirect URL, once the listener is up: on `preferredPort` when it is free (a registration names it), else any. */
  start(preferredPort?: number): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        const send = (status: number, title: string, text: string) => {
          response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' });
          response.end(page(title, text));
        };
        if (request.method !== 'GET' || url.pathname !== '/callback') return send(404, 'Not found', 'There is nothing here.');
        const state = url.searchParams.get('state') ?? '';
        const entry = this.waiting.get(state);
        if (!entry) return send(400, 'Sign-in not expected', 'Toolbelt is not waiting for this sign-in. Start it again from Toolbelt.');
        this.waiting.delete(state);
        clearTimeout(entry.timer);
        const code = url.searchParams.get('code');
        if (!code) {
          const said = url.searchParams.get('error_description') ?? url.searchParams.get('error') ?? 'no code was given';
          entry.reject(new Error(`the sign-in was refused: ${said}`));
          return send(400, 'Sign-in failed', `The server said: ${said}. Go back to Toolbelt to try again.`);
        }
        entry.resolve(code);
        send(200, 'Signed in', 'You are signed in. You can close this tab and go back to Toolbelt.');
      });
      const listen = (port: number) =>
        server.listen(port, '127.0.0.1', () => {
          this.server = server;
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`);
        });
      server.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' && server.listening === false && preferredPort) {
          preferredPort = undefined;
          listen(0);
        } else reject(error);
      });
      listen(preferredPort ?? 0);
    });
    return this.listening;
  }

  /** The code the browser brings back for this state; fails after ten minutes. */
  expect(state: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(state);
        reject(new Error('nobody signed in within 10 minutes'));
      }, WAIT_MS);
      timer.unref();
      this.waiting.set(state, { resolve, reject, timer });
    });
  }

  async close(): Promise<void> {
    for (const [state, entry] of this.waiting) {
      clearTimeout(entry.timer);
      entry.reject(new Error('Toolbelt is closing'));
      this.waiting.delete(state);
    }
    const server = this.server;
    this.server = null;
    this.listening = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
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
