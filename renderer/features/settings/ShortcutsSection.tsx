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
      </dl>
    </section>
  );
}
