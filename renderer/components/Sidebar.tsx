import { useTranslation } from 'react-i18next';
import { SCREENS, useUiStore, type Screen } from '../state/ui.js';
import { ChatIcon, LogoMark, SettingsIcon, ToolsIcon } from './icons.js';
import { shortcutLabel } from './Kbd.js';
import { useListFocus } from './list-keys.js';

/** The product's name: never translated. */
const PRODUCT_NAME = 'Toolbelt';

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
  const { itemRef, onKeyDown } = useListFocus(SCREENS.length);
  const { t } = useTranslation();

  return (
    <aside className="sidebar">
      <div className="sidebar__brand">
        <LogoMark size={22} />
        <span translate="no">{PRODUCT_NAME}</span>
      </div>
      <nav aria-label={t('sidebar.navigation')}>
        <ul className="sidebar__list">
          {SCREENS.map((item, index) => {
            const ItemIcon = ICONS[item.id];
            const current = item.id === screen;
            const label = t(`screens.${item.id}`);
            const badge = badges[item.id];
            const shortcut = shortcutLabel(item.shortcut);
            return (
              <li key={item.id}>
                <button
                  ref={itemRef(index)}
                  type="button"
                  className="sidebar__item"
                  aria-current={current ? 'page' : undefined}
                  aria-keyshortcuts={`Control+${item.shortcut} Meta+${item.shortcut}`}
                  title={badge ? t('sidebar.itemTitleWaiting', { screen: label, shortcut, waiting: badge.label }) : t('sidebar.itemTitle', { screen: label, shortcut })}
                  onClick={() => goTo(item.id)}
                  onKeyDown={(event) => onKeyDown(event, index)}
                >
                  <span className="sidebar__icon">
                    <ItemIcon />
                    {badge ? (
                      <span className="sidebar__badge" aria-hidden="true">
                        {badge.count}
                      </span>
                    ) : null}
                  </span>
                  <span className="sidebar__label">
                    {label}
                    {badge ? <span className="visually-hidden">{`, ${badge.label}`}</span> : null}
                  </span>
                  <span className="sidebar__shortcut" aria-hidden="true">
                    {shortcut}
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
