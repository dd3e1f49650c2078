import { useTranslation } from 'react-i18next';
import { JsonTextField, ListField, NumberField, SelectField, TextField, type FieldContext } from './EditorFields.js';

// Examples of each JSON field, shown under it: code, the same in every language.
const EXAMPLES = {
  query: '{"q": "${city}"}',
  headers: '{"Accept": "application/json"}',
  auth: '{"kind": "bearer", "token": "${secret.API_KEY}"}',
  retry: '{"maxAttempts": 3, "backoff": "exponential"}',
  rateLimit: '{"maxCallsPerMinute": 60}',
};

/** An example is code: it reads left to right in every language, and no one translates it. */
const example = (text: string) => (
  <code dir="ltr" translate="no">
    {text}
  </code>
);

/** The request of an HTTP tool in the editor's form: method and URL, query, headers, body, auth, and how the answer is read. */
export function HttpRequestFields({ context }: { context: FieldContext }) {
  const { t } = useTranslation();
  return (
    <fieldset className="editor__group">
      <legend>{t('editor.http.request')}</legend>
      <div className="editor__row">
        <SelectField context={context} path={['impl', 'method']} label={t('editor.http.method')} options={['GET', 'POST', 'PUT', 'PATCH', 'DELETE']} />
        <TextField context={context} path={['impl', 'urlTemplate']} label={t('editor.http.urlTemplate')} mono help={t('editor.http.urlHelp')} />
      </div>
      <JsonTextField context={context} path={['impl', 'query']} label={t('editor.http.query')} help={example(EXAMPLES.query)} />
      <JsonTextField context={context} path={['impl', 'headers']} label={t('editor.http.headers')} help={example(EXAMPLES.headers)} />
      <JsonTextField context={context} path={['impl', 'body']} label={t('editor.http.body')} rows={4} />
      <JsonTextField context={context} path={['impl', 'auth']} label={t('editor.http.auth')} help={example(EXAMPLES.auth)} />
      <div className="editor__row">
        <NumberField context={context} path={['impl', 'timeoutMs']} label={t('editor.http.timeout')} />
        <ListField context={context} path={['impl', 'successCodes']} label={t('editor.http.successCodes')} numbers help={t('editor.http.successHelp')} />
      </div>
      <JsonTextField context={context} path={['impl', 'retry']} label={t('editor.http.retry')} help={example(EXAMPLES.retry)} />
      <JsonTextField context={context} path={['impl', 'rateLimit']} label={t('editor.http.rateLimit')} help={example(EXAMPLES.rateLimit)} />
      <div className="editor__row">
        <SelectField context={context} path={['impl', 'responseEncoding']} label={t('editor.http.response')} options={['json', 'text', 'sse']} allowEmpty />
        <SelectField context={context} path={['impl', 'errorMode']} label={t('editor.http.nothingExtracted')} options={['fail', 'empty']} allowEmpty />
      </div>
      <TextField context={context} path={['impl', 'extractExpr']} label={t('editor.http.extract')} mono help={t('editor.http.extractHelp')} />
    </fieldset>
  );
}
