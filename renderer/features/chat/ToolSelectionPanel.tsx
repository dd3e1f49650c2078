import { useTranslation } from 'react-i18next';
import { AUTO_SEARCH_TOKENS, AUTO_SEARCH_TOOLS } from '../../../shared/tools/discovery-limits.js';
import { useDeferredValue, useState } from 'react';
import type { Chat, ChatBundle, ChatTools, ToolDiscovery, ToolSelection } from '../../../shared/schemas/chat.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { ToolPicker } from '../../components/ToolPicker.js';
import { useChatContext, useUpdateChat } from '../../queries/chats.js';
import { useSettings } from '../../queries/tools.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { BundlePicker } from './BundlePicker.js';
import { tokensLabel } from './ContextNotice.js';

/** How the model gets the tools; "default" is what Settings says. */
const DISCOVERY_LABEL = { auto: 'discovery.auto', search: 'discovery.search', all: 'discovery.all' } as const satisfies Record<ToolDiscovery, string>;
const DISCOVERY_CHOICES = ['default', 'auto', 'search', 'all'] as const;
const TOOL_MODES = ['auto', 'none'] as const;

const tokens = tokensLabel;

/**
 * Which tools the model may reach in this chat (picked ones, whole bundles),
 * how they are offered (all on every turn, or found by search), whether to
 * ask first, which it may never call, the names it sees, and what that costs.
 */
export function ToolSelectionPanel({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateChat();
  const settings = useSettings();
  const [mode, setMode] = useState(chat.tools.mode);
  const [selected, setSelected] = useState<ToolSelection[]>(chat.tools.selected);
  const [bundles, setBundles] = useState<ChatBundle[]>(chat.tools.bundles ?? []);
  const [discovery, setDiscovery] = useState<ToolDiscovery | 'default'>(chat.tools.discovery ?? 'default');
  const [failure, setFailure] = useState<string | null>(null);
  const save = () => {
    setFailure(null);
    update.mutate(
      { chatId: chat.id, tools: { mode, selected, ...(bundles.length ? { bundles } : {}), ...(discovery === 'default' ? {} : { discovery }) } },
      { onSuccess: onClose, onError: (error) => setFailure(errorMessage(error, t('toolPanel.saveFailed'))) },
    );
  };
  const defaultDiscovery = settings.data?.toolDiscovery ?? 'auto';

  return (
    <Modal title={t('toolPanel.title')} wide onDismiss={onClose}>
      <fieldset className="segmented tool-picker__mode">
        <legend className="visually-hidden">{t('toolPanel.use')}</legend>
        {TOOL_MODES.map((option) => (
          <label key={option} className="segmented__option">
            <input type="radio" name="tool-mode" checked={mode === option} onChange={() => setMode(option)} />
            <span>{option === 'auto' ? t('toolPanel.selected') : t('chatHeader.noTools')}</span>
          </label>
        ))}
      </fieldset>
      <ToolsNow chat={chat} choosing={{ mode, selected, ...(bundles.length ? { bundles } : {}), ...(discovery === 'default' ? {} : { discovery }) }} />
      <label className="field tool-discovery">
        <span className="field__label">{t('discovery.legend')}</span>
        <select className="input" value={discovery} disabled={mode === 'none'} onChange={(event) => setDiscovery(event.target.value as ToolDiscovery | 'default')}>
          {DISCOVERY_CHOICES.map((option) => (
            <option key={option} value={option}>
              {option === 'default' ? t('toolPanel.asInSettings', { current: t(DISCOVERY_LABEL[defaultDiscovery]) }) : t(DISCOVERY_LABEL[option])}
            </option>
          ))}
        </select>
        <span className="field__help">{t('toolPanel.help')}</span>
      </label>
      <BundlePicker bundles={bundles} onChange={setBundles} disabled={mode === 'none'} />
      <ToolPicker selected={selected} onChange={setSelected} disabled={mode === 'none'} pinnable />
      <ErrorLine message={failure} />
      <SaveCancelActions onCancel={onClose} onSave={save} saveDisabled={update.isPending} />
    </Modal>
  );
}

/**
 * What the chat would reach and offer with the tools being chosen (before Save): how many tools, how many loaded by
 * search, and the tokens against offering all; a warning when offering all would not fit the model's input.
 */
function ToolsNow({ chat, choosing }: { chat: Chat; choosing: ChatTools }) {
  const { t } = useTranslation();
  const context = useChatContext(chat, useDeferredValue(choosing));
  const tools = context.data?.tools;
  if (!tools) return null;
  const contextTokens = context.data?.contextTokens;
  const tooMany = tools.mode === 'all' && contextTokens !== undefined && tools.allTokens > contextTokens / 2;
  return (
    <>
      {tooMany ? (
        <p className="callout callout--warn" role="alert">
          {t('toolPanel.allTooMany', { perTurn: tokens(tools.allTokens), limit: tokens(contextTokens) })}
        </p>
      ) : null}
      <p className="tool-discovery__now" role="status">
        {tools.mode === 'search'
          ? t('toolPanel.bySearch', { reachable: t('bundlePicker.tools', { count: tools.reachable }), offered: tools.offered, loaded: tools.loaded, perTurn: tokens(tools.offeredTokens), all: tokens(tools.allTokens) })
          : t('toolPanel.allOffered', { reachable: t('bundlePicker.tools', { count: tools.reachable }), perTurn: tokens(tools.allTokens) })}
        {/* Why this mode; with no tool reached yet there is nothing to explain. */}
        {tools.reachable > 0 ? (
          <span className="muted">
            {' · '}
            {t(`discoveryWhy.${tools.why}`, { count: tools.reachable, tokens: tools.allTokens, maxTools: AUTO_SEARCH_TOOLS, maxTokens: AUTO_SEARCH_TOKENS })}
          </span>
        ) : null}
      </p>
    </>
  );
}
