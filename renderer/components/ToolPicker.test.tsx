// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ToolSelection } from '../../shared/schemas/chat.js';
import { newID } from '../../testing/data/fixtures.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { renderWithCore } from '../testing/with-core.js';
import { ToolPicker } from './ToolPicker.js';

afterEach(cleanup);

// happy-dom lays nothing out: every box is 0 px high, so a virtualised list would show no rows. The picker's
// scrolling box is given the height it has in a window; everything else is as happy-dom has it.
let restore = () => {};
beforeAll(() => {
  let owner: object | null = document.createElement('div');
  while (owner && !Object.getOwnPropertyDescriptor(owner, 'clientHeight')) owner = Object.getPrototypeOf(owner) as object | null;
  const original = Object.getOwnPropertyDescriptor(owner!, 'clientHeight')!;
  Object.defineProperty(owner!, 'clientHeight', {
    configurable: true,
    get(this: Element) {
      return this.classList.contains('tool-picker') ? 480 : (original.get!.call(this) as number);
    },
  });
  restore = () => Object.defineProperty(owner!, 'clientHeight', original);
});
afterAll(() => restore());

/** The picker as a chat's tools panel holds it: the selection in state, what changed shown below. */
function Holder({ hidden }: { hidden?: (tool: { slug: string }) => boolean }) {
  const [selected, setSelected] = useState<ToolSelection[]>([]);
  return (
    <>
      <ToolPicker selected={selected} onChange={setSelected} {...(hidden ? { hidden } : {})} />
      <output aria-label="Selection">{JSON.stringify(selected)}</output>
    </>
  );
}

async function coreWithTools() {
  const core = await startTestCore();
  const bundleID = newID();
  await core.call('bundles.put', { bundleID, slug: 'weather', displayName: 'Weather tools' });
  for (const [slug, displayName] of [['forecast', 'City forecast'], ['alerts', 'Storm alerts']] as const) {
    await core.call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: { displayName, type: 'http', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: `https://example.com/${slug}` } } });
  }
  return { core, bundleID };
}

const selection = () => JSON.parse(screen.getByLabelText('Selection').textContent ?? '[]') as ToolSelection[];

describe('the tool picker, as a person chooses a chat’s tools', () => {
  it('finds tools as one types, groups them by bundle, and chooses one with its options', async () => {
    const { core, bundleID } = await coreWithTools();
    const { user } = await renderWithCore(<Holder />, core);
    const search = screen.getByRole('textbox', { name: 'Search tools' });
    await user.type(search, 'storm');
    const group = screen.getByRole('group', { name: 'All tools' });
    await within(group).findByRole('checkbox', { name: /Storm alerts/ });
    expect(within(group).queryByRole('checkbox', { name: /City forecast/ })).toBeNull();
    // Under its bundle's name, with a button that ticks the whole bundle.
    expect(within(group).getByText('Weather tools')).toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Tick every tool of Weather tools' })).toBeInTheDocument();

    await user.click(within(group).getByRole('checkbox', { name: /Storm alerts/ }));
    expect(selection()).toEqual([{ bundleID, slug: 'alerts', version: 'v1' }]);
    await user.click(screen.getByRole('checkbox', { name: 'Ask before running' }));
    await user.type(screen.getByRole('textbox', { name: 'Name the model sees for Storm alerts' }), 'storm_watch');
    await user.type(screen.getByRole('textbox', { name: "KB of Storm alerts's results the model reads" }), '4');
    expect(selection()).toEqual([{ bundleID, slug: 'alerts', version: 'v1', requiresApproval: true, as: 'storm_watch', resultLimit: 4_000 }]);
    expect(screen.getByText('1 selected')).toBeInTheDocument();

    // Never allowed: not offered to the model, and asking first makes no sense for it.
    await user.click(screen.getByRole('checkbox', { name: 'Never allow' }));
    expect(screen.getByRole('checkbox', { name: 'Ask before running' })).toBeDisabled();
    expect(screen.getByText('0 selected · 1 never allowed')).toBeInTheDocument();
    await user.click(within(group).getByRole('checkbox', { name: /Storm alerts/ }));
    expect(selection()).toEqual([]);

    // The whole bundle, read from the core: both its tools, also the one the search does not show.
    await user.click(within(group).getByRole('button', { name: 'Tick every tool of Weather tools' }));
    await screen.findByText('2 selected');
    expect(selection().map((entry) => entry.slug).sort()).toEqual(['alerts', 'forecast']);
  });

  it('does not offer what it is told to hide (an agent is not offered to itself), and says when nothing matches', async () => {
    const { core } = await coreWithTools();
    const { user } = await renderWithCore(<Holder hidden={(tool) => tool.slug === 'forecast'} />, core);
    const search = screen.getByRole('textbox', { name: 'Search tools' });
    await user.type(search, 'forecast');
    expect(await screen.findByText('No enabled tool matches.')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nothing like this');
    expect(await screen.findByText('No enabled tool matches.')).toBeInTheDocument();
  });
});
