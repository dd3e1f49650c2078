import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolSelection } from '../../../../shared/schemas/chat.js';
import { TrashIcon } from '../../../components/icons.js';
import { Modal, SaveCancelActions } from '../../../components/Modal.js';
import { selectionKey, ToolPicker, type ToolPickerProps } from '../../../components/ToolPicker.js';
import { useModels, useProviders } from '../../../queries/providers.js';
import { useBundleName, useTool } from '../../../queries/tools.js';
import { getPath, setPath } from './draft.js';
import { NumberField, Problems, SelectField, TextField, type FieldContext } from './EditorFields.js';

const TOOLS_PATH = ['impl', 'tools'];

/**
 * An agent tool's own model and tools: the provider from Settings, a model
 * it offers (or any name its server takes), and its tools chosen as a chat
 * chooses them. The agent is not offered to itself.
 */
export function AgentFields({ context, bundleID, slug }: { context: FieldContext; bundleID: string; slug: string }) {
  const { t } = useTranslation();
  const providers = useProviders();
  const providerId = getPath(context.draft, ['impl', 'providerId']);
  const known = typeof providerId === 'string' && providers.data?.some((provider) => provider.id === providerId) ? providerId : null;
  const models = useModels(known);
  const stored = getPath(context.draft, TOOLS_PATH);
  const tools = Array.isArray(stored) ? (stored as ToolSelection[]) : [];
  const [choosing, setChoosing] = useState(false);
  const id = useId();
  const noProviders = providers.data?.length === 0;
  const missingProvider = typeof providerId === 'string' && providerId !== '' && providers.data !== undefined && known === null;
  const setTools = (selected: ToolSelection[]) => {
    context.setDraft(setPath(context.draft, TOOLS_PATH, selected));
    context.touch('/impl/tools');
  };
  const providerHelp = missingProvider
    ? t(noProviders ? 'editor.agent.providerMissingNone' : 'editor.agent.providerMissing', { provider: providerId })
    : noProviders
      ? t('editor.agent.addProviderFirst')
      : t('editor.agent.fromSettings');

  return (
    <fieldset className="editor__group">
      <legend>{t('editor.agent.legend')}</legend>
      <div className="editor__row">
        <SelectField
          context={context}
          path={['impl', 'providerId']}
          label={t('editor.agent.provider')}
          placeholder={noProviders ? t('editor.agent.noProviders') : t('editor.agent.chooseProvider')}
          options={providers.data?.map((provider) => ({ value: provider.id, label: provider.displayName })) ?? []}
          help={providerHelp}
        />
        <TextField
          context={context}
          path={['impl', 'model']}
          label={t('editor.agent.model')}
          mono
          suggestions={models.data?.models.map((model) => model.id)}
          help={models.data?.models.length ? t('editor.agent.modelsListed', { count: models.data.models.length }) : t('editor.agent.modelHelp')}
        />
      </div>
      <TextField context={context} path={['impl', 'system']} label={t('editor.agent.system')} help={t('editor.agent.systemHelp')} />
      <div className="field" role="group" aria-labelledby={`${id}-label`}>
        <span id={`${id}-label`} className="field__label">
          {t('editor.agent.tools')}
        </span>
        {tools.length === 0 ? (
          <p className="muted">{t('editor.agent.noTools')}</p>
        ) : (
          <ul className="agent-tools" aria-label={t('editor.agent.toolsList')}>
            {tools.map((entry) => (
              <ChosenTool key={selectionKey(entry)} entry={entry} onRemove={() => setTools(tools.filter((other) => selectionKey(other) !== selectionKey(entry)))} />
            ))}
          </ul>
        )}
        <div>
          <button type="button" className="button button--small" aria-haspopup="dialog" onClick={() => setChoosing(true)}>
            {t('editor.agent.chooseTools')}
          </button>
        </div>
        <Problems id={`${id}-problems`} problems={context.problemsAt('/impl/tools')} />
      </div>
      <NumberField context={context} path={['impl', 'maxTurns']} label={t('editor.agent.maxTurns')} help={t('editor.agent.maxTurnsHelp')} />
      <SelectField
        context={context}
        path={['impl', 'onToolError']}
        label={t('editor.agent.whenFails')}
        allowEmpty
        options={[
          { value: 'continue', label: t('editor.agent.goOn') },
          { value: 'halt', label: t('editor.agent.halt') },
          { value: 'halt_after', label: t('editor.agent.haltAfter') },
        ]}
        help={t('editor.agent.whenFailsHelp')}
      />
      {getPath(context.draft, ['impl', 'onToolError']) === 'halt_after' ? (
        <NumberField context={context} path={['impl', 'toolErrorLimit']} label={t('editor.agent.failures')} help={t('editor.agent.failuresHelp')} />
      ) : null}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={getPath(context.draft, ['impl', 'parallelToolCalls']) !== false}
          onChange={(event) => context.setDraft(setPath(context.draft, ['impl', 'parallelToolCalls'], event.target.checked ? undefined : false))}
        />
        {t('editor.agent.parallel')}
      </label>
      {choosing ? (
        <AgentToolsDialog
          initial={tools}
          hidden={(tool) => tool.bundleID === bundleID && tool.slug === slug}
          onCancel={() => setChoosing(false)}
          onSave={(selected) => {
            setTools(selected);
            setChoosing(false);
          }}
        />
      ) : null}
    </fieldset>
  );
}

/** One chosen tool by name, with how the agent may use it; removable here too, since a missing one is not in the picker. */
function ChosenTool({ entry, onRemove }: { entry: ToolSelection; onRemove: () => void }) {
  const { t } = useTranslation();
  const tool = useTool(entry);
  const bundleName = useBundleName();
  const name = tool.data?.status === 'valid' ? tool.data.displayName : entry.slug;
  const notes = [
    entry.as ? t('editor.agent.seenAs', { name: entry.as }) : null,
    entry.denied ? t('editor.agent.neverAllowed') : entry.requiresApproval ? t('editor.agent.asksFirst') : null,
    entry.resultLimit ? t('editor.agent.kbForModel', { kb: entry.resultLimit / 1000 }) : null,
    tool.isError ? t('editor.agent.missing') : null,
  ].filter(Boolean);
  return (
    <li>
      {name} <span className="muted">· {bundleName(entry.bundleID) ?? entry.bundleID} · {entry.version}</span>
      {notes.map((note) => (
        <span key={note} className="badge badge--quiet">
          {note}
        </span>
      ))}
      <button type="button" className="icon-button" aria-label={t('editor.agent.remove', { name })} title={t('common.remove')} onClick={onRemove}>
        <TrashIcon size={14} />
      </button>
    </li>
  );
}

function AgentToolsDialog({ initial, hidden, onSave, onCancel }: { initial: ToolSelection[]; hidden: ToolPickerProps['hidden']; onSave: (selected: ToolSelection[]) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState(initial);
  return (
    <Modal title={t('editor.agent.toolsList')} wide onDismiss={onCancel}>
      <ToolPicker selected={selected} onChange={setSelected} hidden={hidden} />
      <SaveCancelActions onCancel={onCancel} onSave={() => onSave(selected)} />
    </Modal>
  );
}
