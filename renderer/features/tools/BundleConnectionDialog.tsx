import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { BundleView } from '../../../shared/schemas/bundle.js';
import type { BundleHttp, HttpImpl } from '../../../shared/schemas/http-impl.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { usePutBundle, useSecretNames } from '../../queries/tools.js';
import { bundleInputOf } from './bundle-input.js';

/** OAuth 2 is two choices for a person: a machine's client, or their own sign-in in the browser. */
type AuthKind = NonNullable<HttpImpl['auth']>['kind'] | 'oauth2-browser';

/** `${secret.API_TOKEN}` ↔ `API_TOKEN`: people name the secret; the file keeps the template. */
const secretOf = (template: string | undefined) => /^\$\{secret\.([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(template ?? '')?.[1] ?? template ?? '';
const templateOf = (name: string) => (name.includes('${') ? name : `\${secret.${name.trim()}}`);

/** Examples in the empty fields: values, the same in every language. */
const EXAMPLES = {
  secret: 'SECRET_NAME',
  tokenUrl: 'https://auth.example.com/oauth/token',
  authorizationUrl: 'https://auth.example.com/oauth/authorize',
  scope: 'read write',
  baseUrl: 'https://api.example.com/v1',
  prefix: 'sha256=',
  timestampHeader: 'X-Timestamp',
  headers: 'Accept: application/json',
  hosts: 'api.example.com, *.example.com',
  timeout: '30000',
  canonicalFields: '{method} {path} {query} {host} {timestamp} {bodyHash} {body}',
};
/** The encodings' own names, the same in every language. */
const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
const redirectUrl = (port: string) => `http://127.0.0.1:${port || 'PORT'}/callback`;

function headersText(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function parseHeaders(text: string, t: TFunction): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1) return t('connection.headerLine', { line: index + 1 });
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * What every HTTP tool of a bundle shares: the API's base URL, how to sign
 * in (with secrets, named, never shown), headers, hosts and a timeout.
 */
export function BundleConnectionDialog({ bundle, onClose }: { bundle: BundleView; onClose: () => void }) {
  const { t } = useTranslation();
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
  const [takeMismatched, setTakeMismatched] = useState(http.outputMismatch === 'warn');
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
    const parsedHeaders = parseHeaders(headers, t);
    if (typeof parsedHeaders === 'string') return setProblem(t('connection.headersProblem', { problem: parsedHeaders }));
    const timeoutMs = timeout.trim() ? Number(timeout) : undefined;
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) return setProblem(t('connection.timeoutProblem'));
    if (kind === 'oauth2-browser' && redirectPort.trim() && !/^\d+$/.test(redirectPort.trim())) return setProblem(t('connection.portProblem'));
    const next: BundleHttp = {
      ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      ...(authOf() ? { auth: authOf() } : {}),
      ...(Object.keys(parsedHeaders).length ? { headers: parsedHeaders } : {}),
      ...(hosts.trim() ? { allowedHosts: hosts.split(/[\s,]+/).filter(Boolean).map((host) => host.toLowerCase()) } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(takeMismatched ? { outputMismatch: 'warn' as const } : {}),
    };
    setProblem(null);
    const { http: _previous, ...kept } = bundleInputOf(bundle);
    put.mutate({ ...kept, ...(Object.keys(next).length ? { http: next } : {}) }, { onSuccess: onClose, onError: (error) => setProblem(errorMessage(error)) });
  };

  const secretField = (label: string, value: string, set: (value: string) => void) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <input className="input" list={`${id}-secrets`} value={value} placeholder={EXAMPLES.secret} onChange={(event) => set(event.target.value)} />
      {value.trim() && !value.includes('${') && secrets.data && !secrets.data.has(value.trim()) ? <span className="field__hint">{t('connection.notSet')}</span> : null}
    </label>
  );

  const tokenUrlField = (
    <label className="field">
      <span className="field__label">{t('connection.tokenUrl')}</span>
      <input className="input" value={tokenUrl} placeholder={EXAMPLES.tokenUrl} onChange={(event) => setTokenUrl(event.target.value)} />
    </label>
  );
  const clientIdField = (
    <label className="field">
      <span className="field__label">{t('connection.clientId')}</span>
      <input className="input" value={clientId} onChange={(event) => setClientId(event.target.value)} />
    </label>
  );
  const scopeField = (
    <label className="field">
      <span className="field__label">{t('connection.scope')}</span>
      <input className="input" value={scope} placeholder={EXAMPLES.scope} onChange={(event) => setScope(event.target.value)} />
    </label>
  );

  return (
    <Modal title={t('connection.title', { name: bundle.displayName })} wide onDismiss={onClose} initialFocus={first} description={t('connection.description')}>
      <form
        className="connection-form"
        aria-label={t('connection.form')}
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
          <span className="field__label">{t('connection.baseUrl')}</span>
          <input ref={first} className="input" value={baseUrl} placeholder={EXAMPLES.baseUrl} onChange={(event) => setBaseUrl(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t('connection.signIn')}</span>
          <select className="input" value={kind} onChange={(event) => setKind(event.target.value as AuthKind)}>
            <option value="none">{t('connection.kind.none')}</option>
            <option value="bearer">{t('connection.kind.bearer')}</option>
            <option value="apiKey">{t('connection.kind.apiKey')}</option>
            <option value="basic">{t('connection.kind.basic')}</option>
            <option value="oauth2-browser">{t('connection.kind.oauth2Browser')}</option>
            <option value="oauth2">{t('connection.kind.oauth2')}</option>
            <option value="hmac">{t('connection.kind.hmac')}</option>
          </select>
        </label>
        {kind === 'bearer' ? secretField(t('connection.token'), token, setToken) : null}
        {kind === 'apiKey' ? (
          <>
            <label className="field">
              <span className="field__label">{t('connection.sentIn')}</span>
              <select className="input" value={keyLocation} onChange={(event) => setKeyLocation(event.target.value as 'header' | 'query')}>
                <option value="header">{t('connection.inHeader')}</option>
                <option value="query">{t('connection.inQuery')}</option>
              </select>
            </label>
            <label className="field">
              <span className="field__label">{keyLocation === 'header' ? t('connection.headerName') : t('connection.queryParameter')}</span>
              <input className="input" value={keyName} onChange={(event) => setKeyName(event.target.value)} />
            </label>
            {secretField(t('connection.key'), keyValue, setKeyValue)}
          </>
        ) : null}
        {kind === 'basic' ? (
          <>
            {secretField(t('connection.username'), username, setUsername)}
            {secretField(t('connection.password'), password, setPassword)}
          </>
        ) : null}
        {kind === 'oauth2-browser' ? (
          <>
            <label className="field">
              <span className="field__label">{t('connection.authorizationUrl')}</span>
              <input className="input" value={authorizationUrl} placeholder={EXAMPLES.authorizationUrl} onChange={(event) => setAuthorizationUrl(event.target.value)} />
            </label>
            {tokenUrlField}
            {clientIdField}
            {secretField(t('connection.clientSecretPublic'), clientSecret, setClientSecret)}
            {scopeField}
            <label className="field">
              <span className="field__label">{t('connection.redirectPort')}</span>
              <input className="input" inputMode="numeric" value={redirectPort} placeholder={t('connection.anyPort')} onChange={(event) => setRedirectPort(event.target.value)} />
              <span className="field__hint">{t('connection.register', { url: redirectUrl(redirectPort.trim()) })}</span>
            </label>
            <p className="field__hint">{t('connection.afterSaving')}</p>
          </>
        ) : null}
        {kind === 'oauth2' ? (
          <>
            {tokenUrlField}
            {clientIdField}
            {secretField(t('connection.clientSecret'), clientSecret, setClientSecret)}
            {scopeField}
            <p className="field__hint">{t('connection.buysToken')}</p>
          </>
        ) : null}
        {kind === 'hmac' ? (
          <>
            {secretField(t('connection.signingKey'), signingKey, setSigningKey)}
            <label className="field">
              <span className="field__label">{t('connection.whatSigned')}</span>
              <textarea className="input" rows={2} value={canonical} onChange={(event) => setCanonical(event.target.value)} />
              <span className="field__hint">{t('connection.use', { fields: EXAMPLES.canonicalFields })}</span>
            </label>
            <label className="field">
              <span className="field__label">{t('connection.signatureHeader')}</span>
              <input className="input" value={signatureHeader} onChange={(event) => setSignatureHeader(event.target.value)} />
            </label>
            <label className="field">
              <span className="field__label">{t('connection.beforeSignature')}</span>
              <input className="input" value={signaturePrefix} placeholder={EXAMPLES.prefix} onChange={(event) => setSignaturePrefix(event.target.value)} />
            </label>
            <label className="field">
              <span className="field__label">{t('connection.encoding')}</span>
              <select className="input" value={encoding} onChange={(event) => setEncoding(event.target.value as 'hex' | 'base64')}>
                {SIGNATURE_ENCODINGS.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span className="field__label">{t('connection.timestampHeader')}</span>
              <input className="input" value={timestampHeader} placeholder={EXAMPLES.timestampHeader} onChange={(event) => setTimestampHeader(event.target.value)} />
            </label>
          </>
        ) : null}
        <label className="field">
          <span className="field__label">{t('connection.headers')}</span>
          <textarea className="input" rows={3} value={headers} placeholder={EXAMPLES.headers} onChange={(event) => setHeaders(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t('connection.hosts')}</span>
          <input className="input" value={hosts} placeholder={EXAMPLES.hosts} onChange={(event) => setHosts(event.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">{t('connection.timeout')}</span>
          <input className="input" inputMode="numeric" value={timeout} placeholder={EXAMPLES.timeout} onChange={(event) => setTimeoutText(event.target.value)} />
        </label>
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={takeMismatched} onChange={(event) => setTakeMismatched(event.target.checked)} />
            {t('connection.takeMismatched')}
          </label>
          <span className="field__hint">{t('connection.takeMismatchedHint')}</span>
        </div>
        <ErrorLine message={problem} />
        <SaveCancelActions onCancel={onClose} saveDisabled={put.isPending} />
      </form>
    </Modal>
  );
}
