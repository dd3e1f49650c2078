import type { ToolDiscovery } from '../../../shared/schemas/chat.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';

const CHOICES: { value: ToolDiscovery; label: string; hint: string }[] = [
  { value: 'auto', label: 'Automatic', hint: 'All tools up to 30 (and a tenth of a typical context); past that, found by search' },
  { value: 'search', label: 'Found by search', hint: 'The model gets the pinned tools and tool_search, and loads the rest it needs' },
  { value: 'all', label: 'All on every turn', hint: 'Every tool of the chat is offered on every turn' },
];

/** How chats that do not say otherwise offer their tools to the model. */
export function ToolDiscoverySection() {
  const settings = useSettings();
  const patch = usePatchSettings();
  const current = settings.data?.toolDiscovery ?? 'auto';
  return (
    <section className="card" aria-labelledby="tool-discovery-title">
      <h2 id="tool-discovery-title" className="card__title">
        Tools in chats
      </h2>
      <p className="muted">A chat can reach thousands of tools; a model picks well among a few dozen. This is what chats do unless their tools panel says otherwise.</p>
      <fieldset className="segmented" disabled={!settings.data || patch.isPending}>
        <legend className="field-label">How the model gets them</legend>
        {CHOICES.map((choice) => (
          <label key={choice.value} className="segmented__option" title={choice.hint}>
            <input type="radio" name="tool-discovery" value={choice.value} checked={current === choice.value} onChange={() => patch.mutate({ toolDiscovery: choice.value })} />
            <span>{choice.label}</span>
          </label>
        ))}
      </fieldset>
      <p className="muted">{CHOICES.find((choice) => choice.value === current)?.hint}.</p>
      <ErrorLine message={patch.isError ? errorMessage(patch.error, 'Could not save the setting.') : null} />
    </section>
  );
}
