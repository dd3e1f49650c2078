// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ArgumentForm } from './ArgumentForm.js';
// Texts come from the catalogue, in English, as in the app.
import '../i18n/index.js';

afterEach(cleanup);

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string', title: 'City', description: 'Where to look' },
    days: { type: 'integer', title: 'Days', default: 3 },
    units: { type: 'string', title: 'Units', oneOf: [{ const: 'metric', title: 'Metric' }, { const: 'imperial', title: 'Imperial' }] },
    fields: { type: 'array', title: 'Fields', items: { type: 'string', enum: ['temp', 'wind', 'rain'] } },
    alerts: { type: 'boolean', title: 'Alerts' },
    where: { type: 'object', title: 'Where' },
  },
  required: ['city', 'fields'],
};

describe('the argument form, as a person fills it in', () => {
  it('builds the fields from the schema, and sends what was typed and picked, typed as the schema says', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ArgumentForm name="Forecast" schema={schema} onSubmit={onSubmit} />);
    expect(screen.getByRole('textbox', { name: 'City' })).toHaveAccessibleDescription('Where to look');
    expect(screen.getByRole('textbox', { name: 'City' })).toHaveAttribute('aria-required', 'true');
    expect(screen.getByRole('textbox', { name: 'Days' })).toHaveValue('3');
    await user.type(screen.getByRole('textbox', { name: 'City' }), 'Oslo');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Units' }), 'Imperial');
    await user.click(screen.getByRole('checkbox', { name: 'rain' }));
    await user.click(screen.getByRole('checkbox', { name: 'temp' }));
    await user.click(screen.getByRole('checkbox', { name: 'Alerts' }));
    await user.type(screen.getByRole('textbox', { name: 'Where' }), '{{"lat": 59.9}');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    // Picked choices keep the schema's order, whatever order they were clicked in.
    expect(onSubmit).toHaveBeenCalledWith({ city: 'Oslo', days: 3, units: 'imperial', fields: ['temp', 'rain'], alerts: true, where: { lat: 59.9 } });
  });

  it('says at each field what is missing or cannot be read, and sends nothing until it can', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ArgumentForm name="Forecast" schema={schema} onSubmit={onSubmit} />);
    const days = screen.getByRole('textbox', { name: 'Days' });
    await user.clear(days);
    await user.type(days, '2.5');
    await user.type(screen.getByRole('textbox', { name: 'Where' }), '{{not json');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'City' })).toHaveAccessibleDescription('Where to look Required.');
    expect(screen.getByRole('textbox', { name: 'City' })).toHaveAttribute('aria-invalid', 'true');
    expect(days).toHaveAccessibleDescription('Enter a whole number.');
    expect(screen.getByRole('group', { name: 'Fields' })).toHaveAccessibleDescription('Pick at least one.');
    expect(screen.getByRole('textbox', { name: 'Where' })).toHaveAccessibleDescription('Enter valid JSON.');
  });

  it('shows the core’s problems at their field, and edits the raw arguments in JSON mode', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ArgumentForm name="Forecast" schema={schema} issues={[{ path: '/city', message: 'must NOT have fewer than 2 characters' }, { path: '', message: 'must have required property fields' }]} onSubmit={onSubmit} />);
    expect(screen.getByRole('textbox', { name: 'City' })).toHaveAccessibleDescription('Where to look Must NOT have fewer than 2 characters.');
    await user.type(screen.getByRole('textbox', { name: 'City' }), 'Rome');
    await user.click(screen.getByRole('button', { name: 'JSON' }));
    const raw = screen.getByRole('textbox', { name: 'Arguments (JSON)' });
    expect(JSON.parse((raw as HTMLTextAreaElement).value)).toEqual({ city: 'Rome', days: 3 });
    await user.clear(raw);
    await user.type(raw, '[1]');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(screen.getByText('Enter a JSON object, e.g. { "city": "Paris" }.')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
