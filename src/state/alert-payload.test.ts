import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AlertWords, alertRequest, genericAlert, headerText } from './alert-payload';

const words: AlertWords = {
  event: 'gave-up',
  at: Date.UTC(2026, 10, 28, 4, 0, 0),
  title: 'Gave up: train.ipynb',
  message: 'Gave up: 3 restarts already (limit 3) and it failed again.',
  notebook: 'train.ipynb',
  restarts: { used: 3, limit: 3 },
};

describe('alert requests', () => {
  it('ntfy: the words as plain text, title, priority and tags as headers', () => {
    expect(alertRequest('ntfy', 'https://ntfy.sh/t', words)).toEqual({
      url: 'https://ntfy.sh/t',
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        Title: 'Gave up: train.ipynb',
        Priority: 'high',
        Tags: 'warning',
      },
      body: words.message,
    });
    expect(alertRequest('ntfy', 'https://ntfy.sh/t', { ...words, event: 'run-finished' }).headers).toMatchObject({
      Priority: 'default',
      Tags: 'white_check_mark',
    });
  });

  it('Slack: {"text"} with its markup characters escaped', () => {
    const request = alertRequest('slack', 'https://hooks.slack.com/services/a/b/c', {
      ...words,
      message: 'x < y & <!channel>',
    });
    expect(request.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(request.body)).toEqual({ text: 'Gave up: train.ipynb\nx &lt; y &amp; &lt;!channel&gt;' });
  });

  it('Discord: {"content"} that pings nobody, within its 2,000 characters', () => {
    const request = alertRequest('discord', 'https://discord.com/api/webhooks/1/x', {
      ...words,
      message: `@everyone ${'x'.repeat(3000)}`,
    });
    const body = JSON.parse(request.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content.startsWith('Gave up: train.ipynb\n@everyone')).toBe(true);
    expect(body.content.length).toBe(2000);
  });

  it('generic JSON: the versioned shape, the name null when not allowed', () => {
    const request = alertRequest('json', 'https://example.org/hook', { ...words, notebook: null });
    expect(JSON.parse(request.body)).toEqual({
      schema: 'colab-oom-guard/alert',
      v: 1,
      event: 'gave-up',
      time: '2026-11-28T04:00:00.000Z',
      notebook: null,
      title: 'Gave up: train.ipynb',
      message: words.message,
      restarts: { used: 3, limit: 3 },
    });
    expect(genericAlert(words).notebook).toBe('train.ipynb');
  });
});

describe('ntfy titles', () => {
  it('go as they are in ASCII, as an RFC 2047 word otherwise', () => {
    expect(headerText('Gave up: a notebook')).toBe('Gave up: a notebook');
    expect(headerText('Abandon : carnet')).toBe('Abandon : carnet');
    expect(headerText('Aufgegeben: Übung')).toBe(`=?UTF-8?B?${Buffer.from('Aufgegeben: Übung').toString('base64')}?=`);
    expect(headerText('line\r\nInjected: yes')).toBe('line  Injected: yes');
  });

  it('always make a header fetch accepts that decodes back to the title', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 50 }), (title) => {
        const header = headerText(title);
        if (!/^[\u0020-\u007e]*$/.test(header)) return false;
        const encoded = /^=\?UTF-8\?B\?(.*)\?=$/.exec(header);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
        const flat = title.replace(/[\u0000-\u001f\u007f]/g, ' ');
        return encoded ? Buffer.from(encoded[1] ?? '', 'base64').toString('utf8') === flat : header === flat;
      }),
    );
  });
});

describe('a title in a header, at the edges of its encoding', () => {
  /** The text an RFC 2047 encoded word carries, as ntfy decodes it. */
  const decoded = (header: string) => {
    const match = /^=\?UTF-8\?B\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(header);
    if (!match?.[1]) throw new Error(`not an encoded word: ${header}`);
    expect(match[1].length % 4).toBe(0);
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match[1], 'base64'));
  };

  it('encodes each character at the edges of UTF-8 lengths whole, padded to whole groups', () => {
    for (const text of ['\u0080', '\u07ff', '\u0800', '\uffff', '\u{10000}', 'é', 'éx', 'éxy', '日本']) {
      expect(decoded(headerText(text)), JSON.stringify(text)).toBe(text);
    }
  });

  it('keeps a plain title of exactly 250 characters whole', () => {
    const title = 'x'.repeat(250);
    expect(headerText(title)).toBe(title);
    expect(decoded(headerText(`${title}y`))).toBe(`${'x'.repeat(249)}…`);
  });
});
