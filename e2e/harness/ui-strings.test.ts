import { describe, expect, it } from 'vitest';
import { englishMessages, messagePattern, uiStrings } from './ui-strings';

const MESSAGES = {
  stateOff: { message: 'Off' },
  stateWatching: { message: 'Watching' },
  notebookUsed: { message: 'Crash loop: $1 of $2 restarts used' },
  storageErrorsLost: { message: '$1 — $2' },
  price: { message: 'Costs $$$1' },
};

describe('uiStrings', () => {
  it('finds a message with its placeholders filled by any text on the line, and records it as written', () => {
    expect(uiStrings('train.ipynb\nCrash loop: 2 of 3 restarts used\n', MESSAGES)).toEqual({
      notebookUsed: 'Crash loop: $1 of $2 restarts used',
    });
  });

  it('finds a counted message by any of its plural forms, and records the whole message', () => {
    const counted = { stateGaveUp: { message: 'one=Gave up after $1 restart|other=Gave up after $1 restarts' } };
    expect(uiStrings('Gave up after 1 restart', counted)).toEqual({ stateGaveUp: counted.stateGaveUp.message });
    expect(uiStrings('Gave up after 3 restarts', counted)).toEqual({ stateGaveUp: counted.stateGaveUp.message });
    expect(uiStrings('Gave up after', counted)).toEqual({});
  });

  it('does not find a message inside a longer word, across lines, or in another case', () => {
    expect(uiStrings('Offline\nCrash loop: 2\nof 3 restarts used\nwatching', MESSAGES)).toEqual({});
  });

  it('finds short messages that stand alone, and sorts the keys', () => {
    expect(Object.keys(uiStrings('Watching\nOff', MESSAGES))).toEqual(['stateOff', 'stateWatching']);
  });

  it('leaves out messages with too few words of their own to tell apart', () => {
    expect(messagePattern('$1 — $2')).toBeUndefined();
    expect(uiStrings('a — b', MESSAGES)).toEqual({});
  });

  it('reads $$ as a dollar sign', () => {
    expect(uiStrings('Costs $5', MESSAGES)).toEqual({ price: 'Costs $$$1' });
  });

  it('loads the English messages of the extension', () => {
    expect(englishMessages().extName?.message).toBe('Colab OOM Guard');
  });
});
