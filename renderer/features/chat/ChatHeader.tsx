import { useTranslation } from 'react-i18next';
import { useId, useState } from 'react';
import type { Chat } from '../../../shared/schemas/chat.js';
import { RecipeIcon, SettingsIcon, WireIcon, WrenchListIcon } from '../../components/icons.js';
import { useChatContext, useUpdateChat } from '../../queries/chats.js';
import { useModels, useProviders } from '../../queries/providers.js';
import { ChatSettingsDialog } from './ChatSettingsDialog.js';
import { ExportMenu } from './ExportMenu.js';
import { RawExchangeDialog } from './RawExchangeDialog.js';
import { recipeCallsOf, SaveAsRecipeDialog } from './SaveAsRecipeDialog.js';
import { busyReason } from './MessageActions.js';
import { ToolSelectionPanel } from './ToolSelectionPanel.js';

/** Title, provider and model, and the tools this chat offers the model. */
export function ChatHeader({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const providers = useProviders();
  const models = useModels(chat.providerId);
  const update = useUpdateChat();
  const [panelOpen, setPanelOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [rawOpen, setRawOpen] = useState(false);
  const [recipeOpen, setRecipeOpen] = useState(false);
  // A recipe is worth making of two calls or more.
  const recipeCalls = recipeCallsOf(chat).length;
  // The core's estimate of the next request: what the offered tools' definitions cost each time.
  const context = useChatContext(chat).data;
  const tokens = context?.toolTokens;
  const id = useId();
  const busyBecause = busyReason(chat);
  const busy = busyBecause !== null;
  const picked = chat.tools.mode === 'none' ? 0 : chat.tools.selected.filter((entry) => !entry.denied).length;
  // With whole bundles, what the core counts (their tools as they are now); the picked ones until it has answered.
  const toolCount = chat.tools.mode === 'none' ? 0 : (context?.tools.reachable ?? picked);
  const bySearch = chat.tools.mode !== 'none' && context?.tools.mode === 'search';
  const deniedCount = chat.tools.mode === 'none' ? 0 : chat.tools.selected.length - picked;
  const modelIds = models.data?.models.map((model) => model.id) ?? [];
  const providerName = providers.data?.find((provider) => provider.id === chat.providerId)?.displayName ?? chat.providerId;
  // Said, not refused: some servers answer to names they do not list (aliases, fine-tunes).
  const unknownModel = chat.model !== '' && modelIds.length > 0 && !modelIds.includes(chat.model);

  return (
    <header className="chat-header">
      <h2 className="chat-header__title">{chat.title}</h2>
      <div className="chat-header__controls">
        <label className="chat-header__caption" htmlFor={`${id}-provider`}>
          {t('chatHeader.provider')}
        </label>
        <select
          id={`${id}-provider`}
          className="input input--small"
          value={chat.providerId}
          disabled={busy}
          onChange={(event) => {
            const provider = providers.data?.find((entry) => entry.id === event.target.value);
            // Another provider's model names mean nothing here: its default, else the person picks one.
            if (provider) update.mutate({ chatId: chat.id, providerId: provider.id, model: provider.defaultModel ?? '' });
          }}
        >
          {providers.data?.some((provider) => provider.id === chat.providerId) ? null : <option value={chat.providerId}>{t('chatHeader.missing', { id: chat.providerId })}</option>}
          {providers.data?.map((provider) => (
            <option key={provider.id} value={provider.id}>
              {provider.displayName}
            </option>
          ))}
        </select>
        <label className="chat-header__caption" htmlFor={`${id}-model`}>
          {t('chatHeader.model')}
        </label>
        <input
          key={`${chat.id}-${chat.model}`}
          id={`${id}-model`}
          className="input input--small chat-header__model"
          list={`${id}-models`}
          defaultValue={chat.model}
          placeholder={t('chatHeader.pickModel')}
          aria-invalid={chat.model && !unknownModel ? undefined : true}
          aria-describedby={unknownModel ? `${id}-unknown` : undefined}
          title={modelIds.length ? t('chatHeader.modelsListed', { count: modelIds.length }) : t('chatHeader.typeModel')}
          disabled={busy}
          onBlur={(event) => {
            const model = event.target.value.trim();
            if (model && model !== chat.model) update.mutate({ chatId: chat.id, model });
          }}
          onKeyDown={(event) => event.key === 'Enter' && event.currentTarget.blur()}
        />
        <datalist id={`${id}-models`}>
          {modelIds.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
        <button type="button" className="button button--small" onClick={() => setPanelOpen(true)} disabled={busy} aria-haspopup="dialog">
          <WrenchListIcon size={15} /> {toolCount === 0 ? t('chatHeader.noTools') : t('chatHeader.toolsOn', { count: toolCount })}
          {bySearch ? t('chatHeader.bySearch') : ''}
          {deniedCount > 0 ? t('chatHeader.neverAllowed', { count: deniedCount }) : ''}
          {toolCount > 0 && tokens !== undefined ? <span className="muted">{t('chatHeader.tokens', { count: tokens })}</span> : null}
        </button>
        <span className="chat-header__icons">
          <button
            type="button"
            className="icon-button"
            aria-label={t('chatHeader.settings')}
            title={busyBecause ? t('chatHeader.settingsBusy', { reason: busyBecause }) : t('chatHeader.settingsHint')}
            onClick={() => setSettingsOpen(true)}
            disabled={busy}
            aria-haspopup="dialog"
          >
            <SettingsIcon size={17} />
          </button>
          <button type="button" className="icon-button" aria-label={t('chatHeader.raw')} title={t('chatHeader.rawHint')} onClick={() => setRawOpen(true)} aria-haspopup="dialog">
            <WireIcon size={17} />
          </button>
          {recipeCalls >= 2 ? (
            <button type="button" className="icon-button" aria-label={t('chatHeader.saveRecipe')} title={t('chatHeader.saveRecipeHint', { count: recipeCalls })} onClick={() => setRecipeOpen(true)} aria-haspopup="dialog">
              <RecipeIcon size={17} />
            </button>
          ) : null}
          <ExportMenu chat={chat} />
        </span>
      </div>
      {unknownModel ? (
        <p id={`${id}-unknown`} className="chat-header__warning" role="status">
          {t('chatHeader.unknownModel', { model: chat.model, provider: providerName })}
        </p>
      ) : null}
      {recipeOpen ? <SaveAsRecipeDialog chat={chat} onClose={() => setRecipeOpen(false)} /> : null}
      {rawOpen ? <RawExchangeDialog chatId={chat.id} onClose={() => setRawOpen(false)} /> : null}
      {panelOpen ? <ToolSelectionPanel chat={chat} onClose={() => setPanelOpen(false)} /> : null}
      {settingsOpen ? <ChatSettingsDialog chat={chat} onClose={() => setSettingsOpen(false)} /> : null}
    </header>
  );
}
