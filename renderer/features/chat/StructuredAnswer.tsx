import { CopyButton } from '../../components/CopyButton.js';
import { JsonTree } from '../../components/JsonTree.js';

/** A final answer given as JSON that matched the chat's schema: a tree to read, the JSON to copy. */
export function StructuredAnswer({ value }: { value: unknown }) {
  return (
    <section className="structured-answer" aria-label="JSON answer">
      <header className="structured-answer__header">
        <span className="badge badge--ok">JSON answer</span>
        <span className="muted">matches the answer schema</span>
        <CopyButton text={JSON.stringify(value, null, 2)} label="Copy JSON" withText />
      </header>
      <JsonTree value={value} />
    </section>
  );
}
