import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AlertWords, alertRequest, authorized, exceptionType, genericAlert, headerText } from './alert-payload';
import type { ReceiverKind } from './alerts';

const words: AlertWords = {
  event: 'gave-up',
  at: Date.UTC(2026, 10, 28, 4, 0, 0),
  title: 'Gave up: train.ipynb',
  message: 'Gave up: 3 restarts already (limit 3) and it failed again.',
  next: '',
  heldBack: { count: 0, text: '' },
  link: null,
  notebook: 'train.ipynb',
  restarts: { used: 3, limit: 3 },
};
/** The same alert as a person acts on it from the phone: what comes next, one held back, the link. */
const full: AlertWords = {
  ...words,
  next: 'Waits for you: nothing restarts until you choose Watch again in the popup.',
  heldBack: { count: 1, text: '1 more like this was held back.' },
  link: { url: 'https://colab.research.google.com/drive/1abc', label: 'Open in Colab' },
};
const to = (kind: ReceiverKind, url: string, chatId: string | null = null) => ({ kind, url, chatId });

describe('alert requests', () => {
  it('ntfy: the words as plain text, title, priority and tags as headers', () => {
    expect(alertRequest(to('ntfy', 'https://ntfy.sh/t'), words)).toEqual({
      url: 'https://ntfy.sh/t',
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        Title: 'Gave up: train.ipynb',
        Priority: 'urgent',
        Tags: 'warning',
      },
      body: words.message,
    });
    expect(alertRequest(to('ntfy', 'https://ntfy.sh/t'), { ...words, event: 'run-finished' }).headers).toMatchObject({
      Priority: 'default',
      Tags: 'white_check_mark',
    });
  });

  it('Slack: {"text"} with its markup characters escaped', () => {
    const request = alertRequest(to('slack', 'https://hooks.slack.com/services/a/b/c'), {
      ...words,
      message: 'x < y & <!channel>',
    });
    expect(request.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(request.body)).toEqual({ text: 'Gave up: train.ipynb\nx &lt; y &amp; &lt;!channel&gt;' });
  });

  it('Discord: {"content"} that pings nobody, within its 2,000 characters', () => {
    const request = alertRequest(to('discord', 'https://discord.com/api/webhooks/1/x'), {
      ...words,
      message: `@everyone ${'x'.repeat(3000)}`,
    });
    const body = JSON.parse(request.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content.startsWith('Gave up: train.ipynb\n@everyone')).toBe(true);
    expect(body.content.length).toBe(2000);
  });

  it('generic JSON: the versioned shape, the name null when not allowed', () => {
    const request = alertRequest(to('json', 'https://example.org/hook'), { ...words, notebook: null });
    expect(JSON.parse(request.body)).toEqual({
      schema: 'colab-oom-guard/alert',
      v: 1,
      event: 'gave-up',
      time: '2026-11-28T04:00:00.000Z',
      notebook: null,
      title: 'Gave up: train.ipynb',
      message: words.message,
      next: '',
      heldBack: 0,
      link: null,
      restarts: { used: 3, limit: 3 },
    });
    expect(genericAlert(words).notebook).toBe('train.ipynb');
    expect(genericAlert(full)).toMatchObject({
      next: full.next,
      heldBack: 1,
      link: 'https://colab.research.google.com/drive/1abc',
    });
  });

  it("Telegram: sendMessage's JSON to the chat, the title first, no link preview", () => {
    const request = alertRequest(to('telegram', 'https://api.telegram.org/', '-1001234567890'), words);
    expect(request.url).toBe('https://api.telegram.org/');
    expect(request.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(request.body)).toEqual({
      chat_id: '-1001234567890',
      text: `Gave up: train.ipynb\n${words.message}`,
      link_preview_options: { is_disabled: true },
    });
    const long = alertRequest(to('telegram', 'https://api.telegram.org/', '42'), {
      ...full,
      message: 'x'.repeat(5000),
    });
    const text: string = JSON.parse(long.body).text;
    expect(text.length).toBe(4096);
    expect(text.endsWith('…\nOpen in Colab: https://colab.research.google.com/drive/1abc')).toBe(true);
  });
});

describe('alerts a person can act on from the phone', () => {
  it('every text receiver says what happened, what comes next, what was held back, then the link', () => {
    const lines = [full.message, full.next, full.heldBack.text].join('\n');
    const link = 'https://colab.research.google.com/drive/1abc';
    const ntfy = alertRequest(to('ntfy', 'https://ntfy.sh/t'), full);
    expect(ntfy.body).toBe(`${lines}\nOpen in Colab: ${link}`);
    expect(ntfy.headers.Click).toBe(link);
    const telegram = alertRequest(to('telegram', 'https://api.telegram.org/', '42'), full);
    expect(JSON.parse(telegram.body).text).toBe(`Gave up: train.ipynb\n${lines}\nOpen in Colab: ${link}`);
    const slack = alertRequest(to('slack', 'https://hooks.slack.com/services/a/b/c'), full);
    expect(JSON.parse(slack.body).text).toBe(`Gave up: train.ipynb\n${lines}\n<${link}|Open in Colab>`);
    const discord = alertRequest(to('discord', 'https://discord.com/api/webhooks/1/x'), full);
    expect(JSON.parse(discord.body).content).toBe(`Gave up: train.ipynb\n${lines}\nOpen in Colab: <${link}>`);
  });

  it('no link and no Click header without the name; nothing held back says nothing', () => {
    const ntfy = alertRequest(to('ntfy', 'https://ntfy.sh/t'), {
      ...full,
      link: null,
      heldBack: { count: 0, text: '' },
    });
    expect(ntfy.body).toBe(`${full.message}\n${full.next}`);
    expect(ntfy.headers).not.toHaveProperty('Click');
  });

  it("ntfy's priority per event: a give-up is urgent, what waits for the person high, the rest as usual", () => {
    const priority = (event: AlertWords['event']) =>
      alertRequest(to('ntfy', 'https://ntfy.sh/t'), { ...words, event }).headers.Priority;
    expect(priority('gave-up')).toBe('urgent');
    for (const event of ['run-stopped', 'ui-problem', 'left-to-person'] as const) expect(priority(event)).toBe('high');
    for (const event of ['restarted', 'run-finished', 'test'] as const) expect(priority(event)).toBe('default');
  });
});

describe('secrets, added at each try', () => {
  const ntfy = alertRequest(to('ntfy', 'https://ntfy.example.org/private'), words);

  it("Telegram's bot token in the method's path, once, whatever the server URL ends with", () => {
    const telegram = alertRequest(to('telegram', 'https://api.telegram.org/', '42'), words);
    const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9';
    expect(authorized(telegram, { kind: 'telegram', token }).url).toBe(
      `https://api.telegram.org/bot${token}/sendMessage`,
    );
    const selfHosted = { ...telegram, url: 'http://127.0.0.1:8081/telegram//' };
    expect(authorized(selfHosted, { kind: 'telegram', token }).url).toBe(
      `http://127.0.0.1:8081/telegram/bot${token}/sendMessage`,
    );
  });

  it('an access token as a bearer; none, the request as it was', () => {
    expect(authorized(ntfy, { kind: 'ntfy', token: 'tk_abc' }).headers).toMatchObject({
      Authorization: 'Bearer tk_abc',
    });
    expect(authorized(ntfy, { kind: 'ntfy', token: null })).toBe(ntfy);
    // What is stored to be tried again holds no secret.
    expect(JSON.stringify(ntfy)).not.toContain('Authorization');
  });
});

describe('the exception type of an error line', () => {
  it.each([
    ['ValueError: shapes (3,) and (4,) not aligned', 'ValueError'],
    ['torch.OutOfMemoryError: CUDA out of memory.', 'torch.OutOfMemoryError'],
    ["  KeyError: 'labels'", 'KeyError'],
    ['AssertionError', 'AssertionError'],
    [
      "subprocess.CalledProcessError: Command 'python train.py --token abc' returned 1",
      'subprocess.CalledProcessError',
    ],
  ])('%s → %s', (line, type) => {
    expect(exceptionType(line)).toBe(type);
  });

  it.each(['/bin/bash: line 1: 123 Killed python train.py', 'Error in training: see log', '', '42: the answer'])(
    'none in %j',
    (line) => {
      expect(exceptionType(line)).toBeNull();
    },
  );
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
