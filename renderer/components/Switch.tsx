interface SwitchProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Accessible name, e.g. "Enable Weather". */
  label: string;
  disabled?: boolean;
}

/** An on/off switch (role="switch"), toggled by click, Space or Enter. */
export function Switch({ checked, onChange, label, disabled }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      title={label}
      disabled={disabled}
      className="switch"
      onClick={(event) => {
        event.stopPropagation();
        onChange(!checked);
      }}
    >
      <span className="switch__thumb" aria-hidden="true" />
    </button>
  );
}

/** A switch with its label written beside it, for where the switch alone would not say what it does; the text toggles it too. */
export function SwitchField(props: SwitchProps) {
  return (
    <label className="switch-field">
      <Switch {...props} />
      <span className="switch-field__text">{props.label}</span>
    </label>
  );
}
