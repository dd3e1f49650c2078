import { describe, expect, it } from 'vitest';
import { asSentence, describeForPeople, fieldLabel } from './issue-text.js';

describe('problems in words', () => {
  it('makes a validator phrase a sentence', () => {
    expect(asSentence('must not be empty')).toBe('Must not be empty.');
    expect(asSentence('Use letters, digits and _ only.')).toBe('Use letters, digits and _ only.');
    expect(asSentence('')).toBe('');
    // A value at the start stays as it is.
    expect(asSentence('localhost:99999 has port 99999')).toBe('localhost:99999 has port 99999.');
  });

  it('names the field a pointer ends at', () => {
    expect(fieldLabel('/impl/urlTemplate')).toBe('URL template');
    expect(fieldLabel('/displayName')).toBe('Display name');
    expect(fieldLabel('/impl/timeoutMs')).toBe('Timeout (ms)');
    expect(fieldLabel('/tags/2')).toBe('Tags (item 3)');
    expect(fieldLabel('/2')).toBe('Item 3');
    expect(fieldLabel('/headers/a~1b')).toBe('A/b');
    expect(fieldLabel('/')).toBe('This');
  });

  it('tells a list of issues as one line of sentences', () => {
    expect(describeForPeople([{ path: '/name', message: 'Use letters, digits and _ only, starting with a letter or _ (up to 128 characters).' }, { path: '/value', message: 'must not be empty' }])).toBe(
      'Name: Use letters, digits and _ only, starting with a letter or _ (up to 128 characters). Value: Must not be empty.',
    );
  });
});
