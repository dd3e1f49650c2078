import { JsonTextField, ListField, NumberField, SelectField, TextField, type FieldContext } from './EditorFields.js';

/** The request of an HTTP tool in the editor's form: method and URL, query, headers, body, auth, and how the answer is read. */
export function HttpRequestFields({ context }: { context: FieldContext }) {
  return (
    <fieldset className="editor__group">
      <legend>Request</legend>
      <div className="editor__row">
        <SelectField context={context} path={['impl', 'method']} label="Method" options={['GET', 'POST', 'PUT', 'PATCH', 'DELETE']} />
        <TextField context={context} path={['impl', 'urlTemplate']} label="URL template" mono help="${name} is an argument, ${secret.NAME} a secret" />
      </div>
      <JsonTextField context={context} path={['impl', 'query']} label="Query" help='{"q": "${city}"}' />
      <JsonTextField context={context} path={['impl', 'headers']} label="Headers" help='{"Accept": "application/json"}' />
      <JsonTextField context={context} path={['impl', 'body']} label="JSON body" rows={4} />
      <JsonTextField context={context} path={['impl', 'auth']} label="Auth" help='{"kind": "bearer", "token": "${secret.API_KEY}"}' />
      <div className="editor__row">
        <NumberField context={context} path={['impl', 'timeoutMs']} label="Timeout (ms)" />
        <ListField context={context} path={['impl', 'successCodes']} label="Success codes" numbers help="Default: any 2xx" />
      </div>
      <JsonTextField context={context} path={['impl', 'retry']} label="Retry" help='{"maxAttempts": 3, "backoff": "exponential"}' />
      <JsonTextField context={context} path={['impl', 'rateLimit']} label="Rate limit" help='{"maxCallsPerMinute": 60}' />
      <div className="editor__row">
        <SelectField context={context} path={['impl', 'responseEncoding']} label="Response" options={['json', 'text']} allowEmpty />
        <SelectField context={context} path={['impl', 'errorMode']} label="When nothing is extracted" options={['fail', 'empty']} allowEmpty />
      </div>
      <TextField context={context} path={['impl', 'extractExpr']} label="Extract" mono help="JSONPath ($.results[0]) or /regex/flags" />
    </fieldset>
  );
}
