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
  return (
    <>
      <JsonEditor
        label={field}
        height={height}
        value={typed ?? JSON.stringify(value ?? {}, null, 2)}
        onChange={(text) => {
          try {
            // Parse here, not in a state updater: React runs updaters later, outside this try.
            const parsed = JSON.parse(text) as unknown;
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
