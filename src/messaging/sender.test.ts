import { describe, expect, it } from 'vitest';
import { isOutputFrameOrigin } from '../site/origins';
import { senderKind } from './sender';

const ID = 'abcdefghijklmnop';
const ORIGIN = `chrome-extension://${ID}/`;

describe('senderKind', () => {
  it('recognises the top frame of a Colab page', () => {
    const sender = { id: ID, url: 'https://colab.research.google.com/drive/x', frameId: 0, tab: { id: 3 } };
    expect(senderKind(sender, ID, ORIGIN)).toBe('colab-page');
  });

  it('recognises the top frame of a Colab page on each of its domains', () => {
    for (const host of ['colab.google.com', 'colab.sandbox.google.com']) {
      const sender = { id: ID, url: `https://${host}/drive/x?authuser=1`, frameId: 0, tab: { id: 3 } };
      expect(senderKind(sender, ID, ORIGIN)).toBe('colab-page');
    }
  });

  it('recognises an output frame inside a tab', () => {
    const sender = {
      id: ID,
      url: 'https://abc-0-colab.googleusercontent.com/outputframe.html?vrz=1',
      frameId: 7,
      tab: { id: 3 },
    };
    expect(senderKind(sender, ID, ORIGIN)).toBe('output-frame');
  });

  it('recognises extension pages (popup, options)', () => {
    expect(senderKind({ id: ID, url: `${ORIGIN}src/popup/index.html?tab=3` }, ID, ORIGIN)).toBe('extension-page');
  });

  it('refuses other extensions, Colab in a sub frame, and lookalike hosts', () => {
    expect(
      senderKind({ id: 'other', url: 'https://colab.research.google.com/', frameId: 0, tab: { id: 1 } }, ID, ORIGIN),
    ).toBeNull();
    expect(
      senderKind({ id: ID, url: 'https://colab.research.google.com/', frameId: 4, tab: { id: 1 } }, ID, ORIGIN),
    ).toBeNull();
    expect(
      senderKind(
        { id: ID, url: 'https://colab.research.google.com.evil.test/', frameId: 0, tab: { id: 1 } },
        ID,
        ORIGIN,
      ),
    ).toBeNull();
    expect(senderKind({ id: ID, url: 'https://example.com/', frameId: 0, tab: { id: 1 } }, ID, ORIGIN)).toBeNull();
    expect(senderKind({ id: ID, url: 'https://colab.google/', frameId: 0, tab: { id: 1 } }, ID, ORIGIN)).toBeNull();
    expect(senderKind({ id: ID, url: 'http://colab.google.com/', frameId: 0, tab: { id: 1 } }, ID, ORIGIN)).toBeNull();
  });
});

describe('isOutputFrameOrigin', () => {
  it('accepts googleusercontent subdomains only over https', () => {
    expect(isOutputFrameOrigin('https://2kkcb3ngq8o-496ff2e9c6d22116-0-colab.googleusercontent.com')).toBe(true);
    expect(isOutputFrameOrigin('http://abc.googleusercontent.com')).toBe(false);
    expect(isOutputFrameOrigin('https://googleusercontent.com.evil.test')).toBe(false);
    expect(isOutputFrameOrigin('https://evilgoogleusercontent.com')).toBe(false);
  });
});
