// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { installScreenShortcuts } from './hooks.js';
import { useUiStore } from './state/ui.js';

let uninstall = () => {};
afterEach(() => {
  uninstall();
  cleanup();
});

function Screen() {
  return (
    <>
      <h1 tabIndex={-1} data-screen-heading>
        Settings
      </h1>
      <label>
        Host to allow <input />
      </label>
    </>
  );
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

describe('screen shortcuts', () => {
  it('move focus to the new screen’s heading, but not out of a field the person went into before the screen was drawn', async () => {
    uninstall = installScreenShortcuts();
    render(<Screen />);
    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    expect(useUiStore.getState().screen).toBe('settings');
    await nextFrame();
    expect(screen.getByRole('heading')).toHaveFocus();

    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    // Before the next frame (a slow one, on a busy machine): the person is already typing in the field.
    screen.getByLabelText('Host to allow').focus();
    await nextFrame();
    expect(screen.getByLabelText('Host to allow')).toHaveFocus();
  });

  it('leave the focus where it is when the key names the screen already shown', async () => {
    uninstall = installScreenShortcuts();
    render(<Screen />);
    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    await nextFrame();
    const field = screen.getByLabelText('Host to allow');
    field.focus();
    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    await nextFrame();
    await nextFrame();
    expect(field).toHaveFocus();
  });

  it('take a key pressed before anything is drawn: the screen chosen is the one the window draws', () => {
    uninstall = installScreenShortcuts();
    fireEvent.keyDown(window, { key: '2', ctrlKey: true });
    expect(useUiStore.getState().screen).toBe('tools');
    fireEvent.keyDown(window, { key: '1', ctrlKey: true });
    expect(useUiStore.getState().screen).toBe('chat');
  });
});
