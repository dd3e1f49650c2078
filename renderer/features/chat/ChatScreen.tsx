import { EmptyState } from '../../components/EmptyState.js';
import { ChatIcon, PlusIcon } from '../../components/icons.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';

export function ChatScreen() {
  return (
    <section className="screen" aria-labelledby="chat-title">
      <ScreenHeader id="chat-title" title="Chat" subtitle="Talk to models that can call your tools." />
      <EmptyState
        icon={<ChatIcon size={40} />}
        title="No conversations yet"
      >
        <p>
          Chats run against OpenAI, any OpenAI-compatible server (Ollama, LM Studio, vLLM) or Anthropic. You choose
          which tools each chat may use and approve calls before they run.
        </p>
        <p className="empty-state__hint">
          <PlusIcon size={16} /> Type <kbd className="kbd">+</kbd> in the message box to run any tool yourself.
        </p>
      </EmptyState>
    </section>
  );
}
