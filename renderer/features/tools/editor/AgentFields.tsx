import { useId, useState } from 'react';
import type { ToolSelection } from '../../../../shared/schemas/chat.js';
import { TrashIcon } from '../../../components/icons.js';
import { Modal, SaveCancelActions } from '../../../components/Modal.js';
import { selectionKey, ToolPicker, type ToolPickerProps } from '../../../components/ToolPicker.js';
import { useModels, useProviders } from '../../../queries/chats.js';
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
    ? `${providerId} is not in Settings → Providers: the agent cannot run until you choose one that is${noProviders ? ', or add one there' : ''}`
    : noProviders
      ? 'Add one in Settings → Providers first'
      : 'From Settings → Providers';

  return (
    <fieldset className="editor__group">
      <legend>Agent</legend>
      <div className="editor__row">
        <SelectField
          context={context}
          path={['impl', 'providerId']}
          label="Provider"
          placeholder={noProviders ? 'No providers yet' : 'Choose a provider'}
          options={providers.data?.map((provider) => ({ value: provider.id, label: provider.displayName })) ?? []}
          help={providerHelp}
        />
        <TextField
          context={context}
          path={['impl', 'model']}
          label="Model"
          mono
          suggestions={models.data?.models.map((model) => model.id)}
          help={models.data?.models.length ? `${models.data.models.length} models from the provider; or any name its server takes` : 'The model the agent runs on'}
        />
      </div>
      <TextField context={context} path={['impl', 'system']} label="System prompt" help="How the agent should work; its task comes from the arguments" />
      <div className="field" role="group" aria-labelledby={`${id}-label`}>
        <span id={`${id}-label`} className="field__label">
          Its tools
        </span>
        {tools.length === 0 ? (
          <p className="muted">None yet: the agent answers from its model alone.</p>
        ) : (
          <ul className="agent-tools" aria-label="Tools the agent may call">
            {tools.map((entry) => (
              <ChosenTool key={selectionKey(entry)} entry={entry} onRemove={() => setTools(tools.filter((other) => selectionKey(other) !== selectionKey(entry)))} />
            ))}
          </ul>
        )}
        <div>
          <button type="button" className="button button--small" aria-haspopup="dialog" onClick={() => setChoosing(true)}>
            Choose tools…
          </button>
        </div>
        <Problems id={`${id}-problems`} problems={context.problemsAt('/impl/tools')} />
      </div>
      <NumberField context={context} path={['impl', 'maxTurns']} label="Max turns" help="1 to 20 (default 6)" />
      <SelectField
        context={context}
        path={['impl', 'onToolError']}
        label="When a tool fails"
        allowEmpty
        options={[
          { value: 'continue', label: 'Tell its model and go on' },
          { value: 'halt', label: 'Stop the agent' },
          { value: 'halt_after', label: 'Stop when one tool keeps failing' },
        ]}
        help="As in a chat; the default tells its model and goes on"
      />
      {getPath(context.draft, ['impl', 'onToolError']) === 'halt_after' ? (
        <NumberField context={context} path={['impl', 'toolErrorLimit']} label="Failures in a row that stop it" help="2 to 20 (default 3)" />
      ) : null}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={getPath(context.draft, ['impl', 'parallelToolCalls']) !== false}
          onChange={(event) => context.setDraft(setPath(context.draft, ['impl', 'parallelToolCalls'], event.target.checked ? undefined : false))}
        />
        Run the calls of one turn at the same time
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
  const tool = useTool(entry);
  const bundleName = useBundleName();
  const name = tool.data?.status === 'valid' ? tool.data.displayName : entry.slug;
  const notes = [
    entry.as ? `seen as ${entry.as}` : null,
    entry.denied ? 'never allowed' : entry.requiresApproval ? 'asks first' : null,
    entry.resultLimit ? `${entry.resultLimit / 1000} KB for the model` : null,
    tool.isError ? 'missing' : null,
  ].filter(Boolean);
  return (
    <li>
      {name} <span className="muted">· {bundleName(entry.bundleID) ?? entry.bundleID} · {entry.version}</span>
      {notes.map((note) => (
        <span key={note} className="badge badge--quiet">
          {note}
        </span>
      ))}
      <button type="button" className="icon-button" aria-label={`Remove ${name}`} title="Remove" onClick={onRemove}>
        <TrashIcon size={14} />
      </button>
    </li>
  );
}

function AgentToolsDialog({ initial, hidden, onSave, onCancel }: { initial: ToolSelection[]; hidden: ToolPickerProps['hidden']; onSave: (selected: ToolSelection[]) => void; onCancel: () => void }) {
  const [selected, setSelected] = useState(initial);
  return (
    <Modal title="Tools the agent may call" wide onDismiss={onCancel}>
      <ToolPicker selected={selected} onChange={setSelected} hidden={hidden} />
      <SaveCancelActions onCancel={onCancel} onSave={() => onSave(selected)} />
    </Modal>
  );
}
