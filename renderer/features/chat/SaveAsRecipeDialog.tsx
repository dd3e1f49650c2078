import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recipeFromCalls } from '../../../shared/recipes/from-calls.js';
import type { Chat, ToolCall } from '../../../shared/schemas/chat.js';
import { CancelAnd, Modal } from '../../components/Modal.js';
import { useBundles } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';
import { useUiStore } from '../../state/ui.js';
import { slugFrom } from '../tools/editor/draft.js';
import '../tools/editor/recipe/recipe.css';

type DoneCall = ToolCall & { tool: NonNullable<ToolCall['tool']>; result: Extract<NonNullable<ToolCall['result']>, { ok: true }> };

/** The calls of a chat that a recipe can be made of: those that ran a tool and succeeded, in order. */
export function recipeCallsOf(chat: Chat): DoneCall[] {
  return chat.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : [])).filter((call): call is DoneCall => call.tool !== undefined && call.result?.ok === true);
}

/** Short arguments for a list: `city: "Oslo", days: 3`. */
function argsLine(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(', ');
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

/**
 * "Save as recipe": the person picks calls the model made (all at first),
 * the bundle the recipe goes in and its name; the builder opens on the
 * recipe made of them, with the values passed between them already turned
 * into references, for the person to check before saving.
 */
export function SaveAsRecipeDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const calls = recipeCallsOf(chat);
  // What the person took out, not what is in: a call the window learns of after this opened (its chat still being
  // read in) is in, as all were at first.
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const chosen = (call: DoneCall) => !left.has(call.id);
  const bundles = useBundles();
  const writable = (bundles.data?.bundles ?? []).filter((bundle) => bundle.status === 'valid' && !bundle.readOnly && !bundle.isBuiltIn);
  const [bundleID, setBundleID] = useState<string>('');
  const target = bundleID || writable[0]?.bundleID || '';
  const picked = calls.filter(chosen);
  const suggested = picked.length ? [...new Set(picked.map((call) => call.tool.displayName))].join(' → ').slice(0, 200) : '';
  const [name, setName] = useState<string | null>(null);
  const displayName = name ?? suggested;
  const openDraft = useToolsUi((state) => state.openDraft);
  const goTo = useUiStore((state) => state.goTo);

  const open = () => {
    const { argSchema, impl } = recipeFromCalls(picked.map((call) => ({ tool: call.tool, args: call.args, value: call.result.value })));
    openDraft(target, { slug: slugFrom(displayName), version: 'v1', displayName, description: '', tags: [], type: 'recipe', isEnabled: true, argSchema, impl });
    goTo('tools');
    onClose();
  };

  return (
    <Modal title={t('saveRecipe.title')} wide onDismiss={onClose} description={<p>{t('saveRecipe.description')}</p>}>
      <form
        className="save-recipe"
        onSubmit={(event) => {
          event.preventDefault();
          open();
        }}
      >
        <fieldset className="save-recipe__calls">
          <legend>{t('saveRecipe.calls', { count: picked.length })}</legend>
          {calls.map((call, index) => (
            <label key={call.id} className="checkbox">
              <input
                type="checkbox"
                checked={chosen(call)}
                onChange={(event) =>
                  setLeft((current) => {
                    const next = new Set(current);
                    if (event.target.checked) next.delete(call.id);
                    else next.add(call.id);
                    return next;
                  })
                }
              />
              <span>
                {t('saveRecipe.call', { number: index + 1, tool: call.tool.displayName })} <code className="muted">{argsLine(call.args)}</code>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="field" htmlFor={`${id}-name`}>
          <span className="field__label">{t('saveRecipe.name')}</span>
          <input id={`${id}-name`} className="input" value={displayName} maxLength={200} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className="field" htmlFor={`${id}-bundle`}>
          <span className="field__label">{t('saveRecipe.bundle')}</span>
          <select id={`${id}-bundle`} className="input" value={target} onChange={(event) => setBundleID(event.target.value)}>
            {writable.map((bundle) => (
              <option key={bundle.bundleID} value={bundle.bundleID}>
                {bundle.displayName}
              </option>
            ))}
          </select>
          {bundles.data && writable.length === 0 ? <span className="field__error">{t('saveRecipe.noBundle')}</span> : null}
        </label>
        <CancelAnd onCancel={onClose}>
          <button type="submit" className="button button--primary" disabled={picked.length === 0 || !target || !displayName.trim() || !slugFrom(displayName)}>
            {t('saveRecipe.open')}
          </button>
        </CancelAnd>
      </form>
    </Modal>
  );
}
