import { useId, useRef, useState } from 'react';
import type { BundleView } from '../../../shared/schemas/bundle.js';
import type { BundleHttp, HttpImpl } from '../../../shared/schemas/http-impl.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { usePutBundle, useSecretNames } from '../../queries/tools.js';

/** OAuth 2 is two choices for a person: a machine's client, or their own sign-in in the browser. */
type AuthKind = NonNullable<HttpImpl['auth']>['kind'] | 'oauth2-browser';

/** `${secret.API_TOKEN}` ↔ `API_TOKEN`: people name the secret; the file keeps the template. */
const secretOf = (template: string | undefined) => /^\$\{secret\.([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(template ?? '')?.[1] ?? template ?? '';
const templateOf = (name: string) => (name.includes('${') ? name : `\${secret.${name.trim()}}`);

function headersText(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function parseHeaders(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return `Line ${index + 1}: write a header as Name: value.`;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * What every HTTP tool of a bundle shares: the API's base URL, how to sign
 * in (with secrets, named, never shown), headers, hosts and a timeout.
 */
export function BundleConnectionDialog({ bundle, onClose }: { bundle: BundleView; onClose: () => void }) {
  const id = useId();
  const put = usePutBundle();
  const secrets = useSecretNames();
  const first = useRef<HTMLInputElement>(null);
  const http = bundle.http ?? {};
  const auth = http.auth;
  const [baseUrl, setBaseUrl] = useState(http.baseUrl ?? '');
  const [kind, setKind] = useState<AuthKind>(auth?.kind === 'oauth2' && auth.flow === 'authorizationCode' ? 'oauth2-browser' : (auth?.kind ?? 'none'));
  const [token, setToken] = useState(auth?.kind === 'bearer' ? secretOf(auth.token) : '');
  const [keyLocation, setKeyLocation] = useState<'header' | 'query'>(auth?.kind === 'apiKey' ? auth.location : 'header');
  const [keyName, setKeyName] = useState(auth?.kind === 'apiKey' ? auth.name : 'X-Api-Key');
  const [keyValue, setKeyValue] = useState(auth?.kind === 'apiKey' ? secretOf(auth.value) : '');
  const [username, setUsername] = useState(auth?.kind === 'basic' ? secretOf(auth.username) : '');
  const [password, setPassword] = useState(auth?.kind === 'basic' ? secretOf(auth.password) : '');
  const hmac = auth?.kind === 'hmac' ? auth : undefined;
  const [signingKey, setSigningKey] = useState(hmac ? secretOf(hmac.secret) : '');
  const [canonical, setCanonical] = useState(hmac?.canonical ?? '{timestamp}.{body}');
  const [signatureHeader, setSignatureHeader] = useState(hmac?.header ?? 'X-Signature');
  const [signaturePrefix, setSignaturePrefix] = useState(hmac?.prefix ?? '');
  const [encoding, setEncoding] = useState<'hex' | 'base64'>(hmac?.encoding ?? 'hex');
  const [timestampHeader, setTimestampHeader] = useState(hmac?.timestampHeader ?? '');
  const oauth2 = auth?.kind === 'oauth2' ? auth : undefined;
  const [tokenUrl, setTokenUrl] = useState(oauth2?.tokenUrl ?? '');
  const [clientId, setClientId] = useState(oauth2?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState(oauth2?.clientSecret ? secretOf(oauth2.clientSecret) : '');
  const [scope, setScope] = useState(oauth2?.scope ?? '');
  const browserSignIn = oauth2?.flow === 'authorizationCode' ? oauth2 : undefined;
  const [authorizationUrl, setAuthorizationUrl] = useState(browserSignIn?.authorizationUrl ?? '');
  const [redirectPort, setRedirectPort] = useState(browserSignIn?.redirectPort === undefined ? '' : String(browserSignIn.redirectPort));
  const [headers, setHeaders] = useState(headersText(http.headers));
  const [hosts, setHosts] = useState((http.allowedHosts ?? []).join(', '));
  const [timeout, setTimeoutText] = useState(http.timeoutMs === undefined ? '' : String(http.timeoutMs));
  const [problem, setProblem] = useState<string | null>(null);

  const authOf = (): HttpImpl['auth'] | undefined => {
    if (kind === 'bearer') return { kind, token: templateOf(token) };
    if (kind === 'apiKey') return { kind, location: keyLocation, name: keyName.trim(), value: templateOf(keyValue) };
    if (kind === 'basic') return { kind, username: templateOf(username), password: templateOf(password) };
    const kept = { ...(scope.trim() ? { scope: scope.trim() } : {}), ...(oauth2?.audience ? { audience: oauth2.audience } : {}), ...(oauth2?.clientAuth ? { clientAuth: oauth2.clientAuth } : {}) };
    if (kind === 'oauth2') return { kind, flow: 'clientCredentials', tokenUrl: tokenUrl.trim(), clientId: clientId.trim(), clientSecret: templateOf(clientSecret), ...kept };
    if (kind === 'oauth2-browser') {
      return {
        kind: 'oauth2',
        flow: 'authorizationCode',
        authorizationUrl: authorizationUrl.trim(),
        tokenUrl: tokenUrl.trim(),
        clientId: clientId.trim(),
        ...(clientSecret.trim() ? { clientSecret: templateOf(clientSecret) } : {}),
        ...(redirectPort.trim() ? { redirectPort: Number(redirectPort) } : {}),
        ...kept,
      };
    }
    if (kind === 'hmac') {
      return {
        kind,
        secret: templateOf(signingKey),
        canonical,
        header: signatureHeader.trim(),
        encoding,
        ...(signaturePrefix ? { prefix: signaturePrefix } : {}),
        ...(timestampHeader.trim() ? { timestampHeader: timestampHeader.trim() } : {}),
      };
    }
    return undefined;
  };

  const save = () => {
    const parsedHeaders = parseHeaders(headers);
    if (typeof parsedHeaders === 'string') return setProblem(`Headers: ${parsedHeaders}`);
    const timeoutMs = timeout.trim() ? Number(timeout) : undefined;
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) return setProblem('Timeout: use a whole number of milliseconds, or leave it empty.');
    if (kind === 'oauth2-browser' && redirectPort.trim() && !/^\d+$/.test(redirectPort.trim())) return setProblem('Redirect port: use a port number from 1024 to 65535, or leave it empty.');
    const next: BundleHttp = {
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      ...(authOf() ? { auth: authOf() } : {}),
      ...(Object.keys(parsedHeaders).length ? { headers: parsedHeaders } : {}),
      ...(hosts.trim() ? { allowedHosts: hosts.split(/[\s,]+/).filter(Boolean).map((host) => host.toLowerCase()) } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
    setProblem(null);
    const { bundleID, slug, displayName, description, isEnabled } = bundle;
    put.mutate({ bundleID, slug, displayName, description, isEnabled, ...(Object.keys(next).length ? { http: next } : {}) }, { onSuccess: onClose, onError: (error) => setProblem(errorMessage(error)) });
  };

  const secretField = (label: string, value: string, set: (value: string) => void) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <input className="input" list={`${id}-secrets`} value={value} placeholder="SECRET_NAME" onChange={(event) => set(event.target.value)} />
      {value.trim() && !value.includes('${') && secrets.data && !secrets.data.has(value.trim()) ? <span className="field__hint">Not set yet: add it in Settings → Secrets.</span> : null}
    </label>
  );

  const tokenUrlField = (
    <label className="field">
      <span className="field__label">Token URL</span>
      <input className="input" value={tokenUrl} placeholder="https://auth.example.com/oauth/token" onChange={(event) => setTokenUrl(event.target.value)} />
    </label>
  );
  const clientIdField = (
    <label className="field">
      <span className="field__label">Client ID</span>
      <input className="input" value={clientId} onChange={(event) => setClientId(event.target.value)} />
    </label>
  );
  const scopeField = (
    <label className="field">
      <span className="field__label">Scope (optional)</span>
      <input className="input" value={scope} placeholder="read write" onChange={(event) => setScope(event.target.value)} />
    </label>
  );

  return (
    <Modal title={`Connection of ${bundle.displayName}`} wide onDismiss={onClose} initialFocus={first} description="Its HTTP tools use these unless they set their own. A tool whose URL starts with / goes on from the base URL.">
      <form
        className="connection-form"
        aria-label="Connection settings"
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <datalist id={`${id}-secrets`}>
          {[...(secrets.data ?? [])].map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <label className="field">
          <span className="field__label">Base URL</span>
          <input ref={first} className="input" value={baseUrl} placeholder="https://api.example.com/v1" onChange={(event) => setBaseUrl(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Sign-in</span>
          <select className="input" value={kind} onChange={(event) => setKind(event.target.value as AuthKind)}>
            <option value="none">None</option>
            <option value="bearer">Bearer token</option>
            <option value="apiKey">API key</option>
            <option value="basic">User name and password</option>
            <option value="oauth2-browser">OAuth 2 (sign in in the browser)</option>
            <option value="oauth2">OAuth 2 (client credentials)</option>
            <option value="hmac">HMAC-SHA256 signature</option>
          </select>
        </label>
        {kind === 'bearer' ? secretField('Token (a secret)', token, setToken) : null}
        {kind === 'apiKey' ? (
          <>
            <label className="field">
              <span className="field__label">Sent in</span>
              <select className="input" value={keyLocation} onChange={(event) => setKeyLocation(event.target.value as 'header' | 'query')}>
                <option value="header">a header</option>
                <option value="query">the query</option>
              </select>
            </label>
            <label className="field">
              <span className="field__label">{keyLocation === 'header' ? 'Header name' : 'Query parameter'}</span>
              <input className="input" value={keyName} onChange={(event) => setKeyName(event.target.value)} />
            </label>
            {secretField('Key (a secret)', keyValue, setKeyValue)}
          </>
        ) : null}
        {kind === 'basic' ? (
          <>
            {secretField('User name (a secret)', username, setUsername)}
            {secretField('Password (a secret)', password, setPassword)}
          </>
        ) : null}
        {kind === 'oauth2-browser' ? (
          <>
            <label className="field">
              <span className="field__label">Authorization URL</span>
              <input className="input" value={authorizationUrl} placeholder="https://auth.example.com/oauth/authorize" onChange={(event) => setAuthorizationUrl(event.target.value)} />
            </label>
            {tokenUrlField}
            {clientIdField}
            {secretField('Client secret (a secret; none for a public client)', clientSecret, setClientSecret)}
            {scopeField}
            <label className="field">
              <span className="field__label">Redirect port (optional)</span>
              <input className="input" inputMode="numeric" value={redirectPort} placeholder="any free port" onChange={(event) => setRedirectPort(event.target.value)} />
              <span className="field__hint">
                Register http://127.0.0.1:{redirectPort.trim() || 'PORT'}/callback with the provider. Set a port when it does not accept any port on 127.0.0.1.
              </span>
            </label>
            <p className="field__hint">After saving, select Sign in under the bundle. Toolbelt keeps the tokens as secrets and renews them without you.</p>
          </>
        ) : null}
        {kind === 'oauth2' ? (
          <>
            {tokenUrlField}
            {clientIdField}
            {secretField('Client secret (a secret)', clientSecret, setClientSecret)}
            {scopeField}
            <p className="field__hint">Toolbelt buys a token with these, keeps it as a secret, and buys a new one before it ends.</p>
          </>
        ) : null}
        {kind === 'hmac' ? (
          <>
            {secretField('Signing key (a secret)', signingKey, setSigningKey)}
            <label className="field">
              <span className="field__label">What is signed</span>
              <textarea className="input" rows={2} value={canonical} onChange={(event) => setCanonical(event.target.value)} />
              <span className="field__hint">Use {'{method} {path} {query} {host} {timestamp} {bodyHash} {body}'}.</span>
            </label>
            <label className="field">
              <span className="field__label">Signature header</span>
              <input className="input" value={signatureHeader} onChange={(event) => setSignatureHeader(event.target.value)} />
            </label>
            <label className="field">
              <span className="field__label">Before the signature (optional)</span>
              <input className="input" value={signaturePrefix} placeholder="sha256=" onChange={(event) => setSignaturePrefix(event.target.value)} />
            </label>
            <label className="field">
              <span className="field__label">Encoding</span>
              <select className="input" value={encoding} onChange={(event) => setEncoding(event.target.value as 'hex' | 'base64')}>
                <option value="hex">hex</option>
                <option value="base64">base64</option>
              </select>
            </label>
            <label className="field">
              <span className="field__label">Timestamp header (optional)</span>
              <input className="input" value={timestampHeader} placeholder="X-Timestamp" onChange={(event) => setTimestampHeader(event.target.value)} />
            </label>
          </>
        ) : null}
        <label className="field">
          <span className="field__label">Headers, one per line</span>
          <textarea className="input" rows={3} value={headers} placeholder="Accept: application/json" onChange={(event) => setHeaders(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Hosts its tools may reach, besides the global list</span>
          <input className="input" value={hosts} placeholder="api.example.com, *.example.com" onChange={(event) => setHosts(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Timeout (ms)</span>
          <input className="input" inputMode="numeric" value={timeout} placeholder="30000" onChange={(event) => setTimeoutText(event.target.value)} />
        </label>
        <ErrorLine message={problem} />
        <SaveCancelActions onCancel={onClose} saveDisabled={put.isPending} />
      </form>
    </Modal>
  );
}
