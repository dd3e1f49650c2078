import { afterEach, describe, expect, it } from 'vitest';
import { ToolbeltError } from '../../shared/errors.js';
import { i18n } from '../i18n/index.js';
import { errorMessage } from './ErrorLine.js';

describe('what a failed call tells the person', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('in English, the core’s own sentence with its specifics', () => {
    expect(errorMessage(new ToolbeltError('not_found', 'There is no tool "lookup" version "v1".'))).toBe('There is no tool "lookup" version "v1".');
    expect(errorMessage(new Error('socket closed'))).toBe('The app did not answer; try again.');
  });

  it('in another language, what the code means first, then the core’s sentence in its own direction', async () => {
    await i18n.changeLanguage('de');
    expect(errorMessage(new ToolbeltError('not_found', 'There is no tool "lookup".'))).toBe('Nicht gefunden. \u2068There is no tool "lookup".\u2069');
    expect(errorMessage(new Error('socket closed'))).toBe('Die App hat nicht geantwortet; bitte erneut versuchen.');
    await i18n.changeLanguage('ar');
    expect(errorMessage(new ToolbeltError('host_not_allowed', 'api.example.com is not in the allowed hosts.'))).toBe('المضيف غير مسموح. \u2068api.example.com is not in the allowed hosts.\u2069');
  });
});
