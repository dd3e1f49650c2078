import { useRef, type KeyboardEvent } from 'react';
import { SCREENS, useUiStore, type Screen } from '../state/ui.js';
import { ChatIcon, LogoMark, SettingsIcon, ToolsIcon } from './icons.js';
import { shortcutLabel } from './Kbd.js';

const ICONS: Record<Screen, typeof ChatIcon> = { chat: ChatIcon, tools: ToolsIcon, settings: SettingsIcon };

/** Something on a screen that waits for the person, shown on its item from anywhere. */
export interface ScreenBadge {
  count: number;
  /** Said to screen readers and in the tooltip: "2 chats wait for you". */
  label: string;
}

/** Main navigation. Arrow keys move between items, Home/End jump, Enter opens. */
export function Sidebar({ badges = {} }: { badges?: Partial<Record<Screen, ScreenBadge>> }) {
  const screen = useUiStore((state) => state.screen);
  const goTo = useUiStore((state) => state.goTo);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = SCREENS.length - 1;
    const target =
      event.key === 'ArrowDown' ? (index === last ? 0 : index + 1)
      : event.key === 'ArrowUp' ? (index === 0 ? last : index - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null;
    if (target === null) return;
    event.preventDefault();
    items.current[target]?.focus();
  };

  return (
    <aside className="sidebar">
      <div className="sidebar__brand">
        <LogoMark size={22} />
        <span>Toolbelt</span>
      </div>
      <nav aria-label="Main">
        <ul className="sidebar__list">
          {SCREENS.map((item, index) => {
            const ItemIcon = ICONS[item.id];
            const current = item.id === screen;
            return (
              <li key={item.id}>
                <button
                  ref={(element) => {
                    items.current[index] = element;
                  }}
                  type="button"
                  className="sidebar__item"
                  aria-current={current ? 'page' : undefined}
                  aria-keyshortcuts={`Control+${item.shortcut} Meta+${item.shortcut}`}
                  title={`${item.label} (${shortcutLabel(item.shortcut)})${badges[item.id] ? ` · ${badges[item.id]!.label}` : ''}`}
                  onClick={() => goTo(item.id)}
                  onKeyDown={(event) => onKeyDown(event, index)}
                >
                  <span className="sidebar__icon">
                    <ItemIcon />
                    {badges[item.id] ? (
                      <span className="sidebar__badge" aria-hidden="true">
                        {badges[item.id]!.count}
                      </span>
                    ) : null}
                  </span>
                  <span className="sidebar__label">
                    {item.label}
                    {badges[item.id] ? <span className="visually-hidden">, {badges[item.id]!.label}</span> : null}
                  </span>
                  <span className="sidebar__shortcut" aria-hidden="true">
                    {shortcutLabel(item.shortcut)}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
    </aside>
  );
}
