import { useTranslation } from 'react-i18next';
import { SCRIPT_SANDBOX_TYPES } from '../../../../shared/script-sandbox-types.js';
import { JsonEditor } from '../../../components/monaco/JsonEditor.js';
import { getPath, setPath } from './draft.js';
import { ListField, Problems, SelectField, type FieldContext } from './EditorFields.js';

/**
 * A script tool's module: its language, its code in the editor with the
 * sandbox's typings (fetch, secret, console), and the secrets it may read.
 * An argument schema left empty is read from the function when it is saved.
 */
export function ScriptFields({ context, revision }: { context: FieldContext; revision: number }) {
  const { t } = useTranslation();
  const language = getPath(context.draft, ['impl', 'language']) === 'javascript' ? 'javascript' : 'typescript';
  const source = getPath(context.draft, ['impl', 'source']);
  return (
    <fieldset className="editor__group">
      <legend>{t('editor.script.legend')}</legend>
      <SelectField context={context} path={['impl', 'language']} label={t('editor.script.language')} options={['typescript', 'javascript']} />
      <p className="muted">{t('editor.script.help')}</p>
      <JsonEditor
        key={`script-${revision}-${language}`}
        label={t('editor.script.code')}
        language={language}
        typings={SCRIPT_SANDBOX_TYPES}
        value={typeof source === 'string' ? source : ''}
        height={320}
        onChange={(text) => {
          context.setDraft(setPath(context.draft, ['impl', 'source'], text));
          context.touch('/impl/source');
        }}
      />
      <Problems id="script-source-problems" problems={context.problemsAt('/impl/source')} />
      <ListField context={context} path={['impl', 'secrets']} label={t('editor.script.secrets')} help={t('editor.script.secretsHelp')} />
    </fieldset>
  );
}
