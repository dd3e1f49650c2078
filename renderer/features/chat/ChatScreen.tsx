import { EmptyState } from '../../components/EmptyState.js';
import { ChatIcon } from '../../components/icons.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useUiStore } from '../../state/ui.js';

export function ChatScreen() {
  const goTo = useUiStore((state) => state.goTo);
  return (
    <section className="screen" aria-labelledby="chat-title">
      <ScreenHeader id="chat-title" title="Chat" subtitle="Talk to models that can call your tools." />
      <EmptyState
        icon={<ChatIcon size={40} />}
        title="Chats are coming to this build"
        actions={
          <button type="button" className="button button--primary" onClick={() => goTo('tools')}>
            Try a tool now
          </button>
        }
      >
        <p>
          Here you will chat with OpenAI, any OpenAI-compatible server (Ollama, LM Studio, vLLM) or Anthropic, choose
          which tools each chat may use, approve calls before they run, and type <kbd className="kbd">+</kbd> to run
          any tool yourself.
        </p>
        <p className="empty-state__hint">Until then, every tool can be run and inspected in the tester on the Tools screen.</p>
      </EmptyState>
    </section>
  );
}
