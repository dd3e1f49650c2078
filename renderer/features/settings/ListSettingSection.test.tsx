// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { startTestCore } from '../../../testing/harness/test-core.js';
import { renderWithCore } from '../../testing/with-core.js';
import { ListSettingSection } from './ListSettingSection.js';

afterEach(cleanup);

it('adds nothing until the list has come (an entry added before would be saved as the whole list), then adds to it', async () => {
  const subject = await startTestCore();
  await subject.call('settings.patch', { allowedHosts: ['api.one.example', 'api.two.example'] });
  // The core answers the window's first read of the settings only when the test says: a slow start.
  let answer = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  const call = subject.core.dispatcher.call.bind(subject.core.dispatcher);
  subject.core.dispatcher.call = (async (name: string, ...rest: unknown[]) => {
    if (name === 'settings.get') await held;
    return (call as (...args: unknown[]) => unknown)(name, ...rest);
  });
  const { user } = await renderWithCore(<ListSettingSection setting="allowedHosts" title="Allowed hosts" description="" inputLabel="Host to allow" placeholder="" empty="No hosts yet." />, subject);

  // Loading, not empty; the person may type, but not add.
  expect(screen.getByRole('status')).toHaveTextContent('Loading the list…');
  expect(screen.queryByText('No hosts yet.')).toBeNull();
  await user.type(screen.getByLabelText('Host to allow'), 'api.three.example{Enter}');
  expect(screen.getByRole('button', { name: 'Add' })).toBeDisabled();

  answer();
  const list = await screen.findByRole('list', { name: 'Allowed hosts' });
  expect(list).toHaveTextContent('api.one.example');
  // What was typed is still there; added now, it joins the list.
  await user.click(screen.getByRole('button', { name: 'Add' }));
  await waitFor(async () => expect((await subject.call('settings.get', {})).allowedHosts).toEqual(['api.one.example', 'api.two.example', 'api.three.example']));
});
