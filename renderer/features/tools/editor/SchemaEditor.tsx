import { useState } from 'react';
import { JsonEditor } from '../../../components/monaco/JsonEditor.js';

/** A Monaco editor for one JSON Schema of the draft, with its problems under it; text that does not parse is kept as typed. */
export function SchemaEditor({
  field,
  value,
  typed,
  problems,
  onChange,
  onTyped,
  height,
}: {
  field: string;
  value: unknown;
  typed: string | undefined;
  problems: string[];
  onChange: (parsed: unknown) => void;
  onTyped: (text: string | null) => void;
  height?: number;
}) {
  // The editor owns its text; a schema put in from elsewhere (read from a script's function) opens it again on that.
  const [shown, setShown] = useState(() => JSON.stringify(value ?? {}));
  const [opened, setOpened] = useState(0);
  const incoming = JSON.stringify(value ?? {});
  if (typed === undefined && incoming !== shown) {
    setShown(incoming);
    setOpened((count) => count + 1);
  }
  return (
    <>
      <JsonEditor
        key={opened}
        label={field}
        height={height}
        value={typed ?? JSON.stringify(value ?? {}, null, 2)}
        onChange={(text) => {
          try {
            // Parse here, not in a state updater: React runs updaters later, outside this try.
            const parsed = JSON.parse(text) as unknown;
            setShown(JSON.stringify(parsed));
            onTyped(null);
            onChange(parsed);
          } catch {
            onTyped(text);
          }
        }}
      />
      {problems.map((problem) => (
        <p key={problem} className="field__error">
          {problem}
        </p>
      ))}
    </>
  );
}
