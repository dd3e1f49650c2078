import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request with full control over headers, Host included (fetch will not
 * let a caller forge Host, which the DNS-rebinding tests need).
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // The path is sent exactly as given: parsing it as a URL would resolve "..".
    const { hostname, port } = new URL(url);
    const rawPath = url.replace(/^https?:\/\/[^/]+/, '') || '/';
    const requestOptions = { hostname, port, path: rawPath, method: options.method ?? 'GET', headers: options.headers };
    const request = http.request(requestOptions, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}
