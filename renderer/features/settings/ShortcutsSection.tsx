import { Kbd } from '../../components/Kbd.js';
import { SCREENS } from '../../state/ui.js';

export function ShortcutsSection() {
  return (
    <section className="card" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title" className="card__title">
        Keyboard shortcuts
      </h2>
      <dl className="facts">
        {SCREENS.map((screen) => (
          <div key={screen.id} className="facts__row">
            <dt>Go to {screen.label}</dt>
            <dd>
              <Kbd shortcut={screen.shortcut} />
            </dd>
          </div>
        ))}
        <div className="facts__row">
          <dt>Open Settings</dt>
          <dd>
            <Kbd shortcut="," />
          </dd>
        </div>
        <div className="facts__row">
          <dt>New chat (in a browser, Ctrl+N stays the browser's)</dt>
          <dd>
            <Kbd shortcut="N" /> or <Kbd shortcut="Shift+O" />
          </dd>
        </div>
        <div className="facts__row">
          <dt>Run a tool (the + palette)</dt>
          <dd>
            <Kbd shortcut="K" />, or <kbd className="kbd">+</kbd> at the start of a message
          </dd>
        </div>
        <div className="facts__row">
          <dt>Stop the answer / deny an approval</dt>
          <dd>
            <kbd className="kbd">Esc</kbd>
          </dd>
        </div>
      </dl>
    </section>
  );
}
