// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolResult } from './ContentBlocks.js';
// Texts come from the catalogue, in English, as in the app.
import '../i18n/index.js';

afterEach(cleanup);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('a call’s result in its card', () => {
  it('draws the blocks a server sent beside structured content, the structured value one click away', async () => {
    const image = { type: 'image', mimeType: 'image/png', data: PNG };
    render(<ToolResult value={{ content: [image], note: 'the structured copy' }} content={[image]} />);
    expect(screen.getByRole('img')).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
    const structured = screen.getByText('Structured content');
    expect(screen.getByText(/note/)).not.toBeVisible();
    await userEvent.click(structured);
    expect(screen.getByText(/note/)).toBeVisible();
  });

  it('shows the value alone when there are no blocks beside it', () => {
    render(<ToolResult value={{ temperature: 21 }} />);
    expect(screen.queryByText('Structured content')).toBeNull();
    expect(screen.getByText(/temperature/)).toBeVisible();
  });
});
