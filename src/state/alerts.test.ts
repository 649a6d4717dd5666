import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALERTS_VERSION,
  alertDataCategories,
  checkAlertUrl,
  configuredReceiver,
  defaultAlertsConfig,
  migrateAlertsConfig,
  parseAlertsConfig,
  secretProblem,
  shouldAlert,
} from './alerts';

describe('alert URLs', () => {
  it('read the receiver from the host: Slack, Discord (both domains), ntfy.sh, anything else JSON', () => {
    const kind = (url: string) => {
      const checked = checkAlertUrl(url, 'auto');
      return checked.ok ? checked.kind : checked.problem;
    };
    expect(kind('https://hooks.slack.com/services/T000/B000/XXXX')).toBe('slack');
    expect(kind('https://discord.com/api/webhooks/123456/abc-DEF_ghi')).toBe('discord');
    expect(kind('https://discordapp.com/api/webhooks/123456/abc')).toBe('discord');
    expect(kind('https://ntfy.sh/my-training-alerts')).toBe('ntfy');
    expect(kind('https://api.telegram.org')).toBe('telegram');
    expect(kind('https://example.org/hook')).toBe('json');
    // A Discord page that is not a webhook is no Discord receiver.
    expect(kind('https://discord.com/channels/1/2')).toBe('json');
  });

  it('take the chosen kind over the host: a self-hosted ntfy', () => {
    expect(checkAlertUrl('https://push.example.org/alerts', 'ntfy')).toMatchObject({ ok: true, kind: 'ntfy' });
    expect(checkAlertUrl('https://ntfy.sh/topic', 'json')).toMatchObject({ ok: true, kind: 'json' });
  });

  it('refuse what cannot receive alerts, each with its reason', () => {
    const problem = (url: string, kind: Parameters<typeof checkAlertUrl>[1] = 'auto') => {
      const checked = checkAlertUrl(url, kind);
      return checked.ok ? 'ok' : checked.problem;
    };
    expect(problem('   ')).toBe('empty');
    expect(problem('ntfy.sh/topic')).toBe('not-a-url');
    expect(problem('http://ntfy.sh/topic')).toBe('not-https');
    expect(problem('ftp://example.org/x')).toBe('not-https');
    expect(problem('http://192.168.1.2/topic')).toBe('not-https');
    expect(problem('https://user:secret@ntfy.example.org/topic', 'ntfy')).toBe('credentials');
    expect(problem('https://hooks.slack.com/')).toBe('slack-path');
    expect(problem('https://example.org/api/webhooks/x', 'discord')).toBe('discord-path');
    expect(problem('https://ntfy.sh/')).toBe('ntfy-topic');
    expect(problem(`https://example.org/${'a'.repeat(2100)}`)).toBe('too-long');
  });

  it('allow plain http to this computer only, asking for that host on every port', () => {
    expect(checkAlertUrl('http://127.0.0.1:8123/hook', 'auto')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8123/hook',
      kind: 'json',
      permission: 'http://127.0.0.1/*',
    });
    expect(checkAlertUrl('http://localhost:2586/topic', 'ntfy')).toMatchObject({
      ok: true,
      permission: 'http://localhost/*',
    });
  });

  it('ask for exactly the host of an https URL, whatever its path and query', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['https'], withQueryParameters: true }), (url) => {
        const checked = checkAlertUrl(url, 'json');
        if (!checked.ok) return checked.problem === 'credentials' || checked.problem === 'too-long';
        const host = new URL(url).hostname;
        return checked.permission === `https://${host}/*`;
      }),
    );
  });
});

describe('alert settings', () => {
  it('start with no URL, every end that waits for the person chosen, name and line kept in the browser', () => {
    const config = defaultAlertsConfig();
    expect(config).toMatchObject({
      url: null,
      kind: 'auto',
      token: null,
      chatId: null,
      includeTitle: false,
      includeErrorLine: false,
      notificationsOffered: false,
    });
    // docs/alerts.md: gave up, a run stopped by another error, a Colab UI problem, Colab leaving it to you.
    expect(
      Object.entries(config.events)
        .filter(([, on]) => on)
        .map(([event]) => event),
    ).toEqual(['gave-up', 'run-stopped', 'ui-problem', 'left-to-person', 'tab-gone']);
  });

  it('alert only with a URL, and only for the chosen events', () => {
    const none = defaultAlertsConfig();
    expect(shouldAlert(none, 'gave-up')).toBe(false);
    const set = { ...none, url: 'https://ntfy.sh/x' };
    expect(shouldAlert(set, 'gave-up')).toBe(true);
    expect(shouldAlert(set, 'run-stopped')).toBe(true);
    expect(shouldAlert(set, 'run-finished')).toBe(false);
    expect(shouldAlert({ ...set, events: { ...set.events, 'run-finished': true } }, 'run-finished')).toBe(true);
  });

  it("never alert the guard's own end after 12 hours: the person is told when they come back", () => {
    const set = { ...defaultAlertsConfig(), url: 'https://ntfy.sh/x' };
    expect(shouldAlert(set, 'guard-ended')).toBe(false);
  });

  it('read a corrupt or newer stored value as no alerts', () => {
    expect(parseAlertsConfig({ v: ALERTS_VERSION + 1, url: 'https://ntfy.sh/x' }).url).toBeNull();
    expect(parseAlertsConfig('junk').url).toBeNull();
    expect(parseAlertsConfig({ v: ALERTS_VERSION, url: 'https://ntfy.sh/x' })).toMatchObject({
      url: 'https://ntfy.sh/x',
      events: { 'gave-up': true, restarted: false },
    });
    expect(parseAlertsConfig({ v: ALERTS_VERSION, url: 'https://ntfy.sh/x', token: 't'.repeat(201) }).url).toBeNull();
  });

  it('send nowhere when the stored URL no longer checks', () => {
    const config = { ...defaultAlertsConfig(), url: 'http://example.org/x' };
    expect(configuredReceiver(config)).toBeNull();
    expect(configuredReceiver({ ...config, url: 'https://example.org/x' })).toMatchObject({ kind: 'json' });
  });
});

describe('alert URLs at their edges', () => {
  const problem = (url: string, kind: Parameters<typeof checkAlertUrl>[1] = 'auto') => {
    const checked = checkAlertUrl(url, kind);
    return checked.ok ? 'ok' : checked.problem;
  };

  it('take an address of 2,000 characters, not one more', () => {
    const base = 'https://example.org/';
    expect(problem(base + 'a'.repeat(2000 - base.length))).toBe('ok');
    expect(problem(base + 'a'.repeat(2001 - base.length))).toBe('too-long');
  });

  it('plain http only to this computer, whatever the scheme names it: never to another host', () => {
    expect(problem('ws://localhost/topic', 'ntfy')).toBe('not-https');
    expect(problem('https://user@ntfy.example.org/topic', 'ntfy')).toBe('credentials');
    expect(problem('https://:secret@ntfy.example.org/topic', 'ntfy')).toBe('credentials');
  });

  it('a Slack or Discord webhook path whole, a ntfy topic last', () => {
    expect(problem('https://hooks.slack.com/services/T1/B2/c3')).toBe('ok');
    expect(problem('https://hooks.slack.com/x/services/T1/B2/c3')).toBe('slack-path');
    expect(problem('https://hooks.slack.com/services/T1/B2/c3/d4')).toBe('slack-path');
    expect(problem('https://discord.com/api/webhooks/123/abc/')).toBe('ok');
    expect(problem('https://example.org/x/api/webhooks/123/abc', 'discord')).toBe('discord-path');
    expect(problem('https://discord.com/api/webhooks/123/abc/more')).toBe('discord-path');
    expect(problem('https://ntfy.sh/topic/more.json')).toBe('ntfy-topic');
    expect(problem('https://example.org/any/path?at=all', 'json')).toBe('ok');
  });

  it('no receiver without a URL', () => {
    expect(configuredReceiver({ ...defaultAlertsConfig(), url: null })).toBeNull();
  });
});

describe('alert settings of version 1', () => {
  const v1 = {
    v: 1,
    url: 'https://ntfy.sh/x',
    kind: 'ntfy',
    events: { 'gave-up': true, 'run-stopped': true, 'ui-problem': false, 'left-to-person': false, restarted: false },
    includeTitle: true,
    notificationsOffered: true,
  };

  it("take version 2's events where nobody changed version 1's, and keep everything else", () => {
    expect(parseAlertsConfig(v1)).toEqual({
      v: 2,
      url: 'https://ntfy.sh/x',
      kind: 'ntfy',
      token: null,
      chatId: null,
      events: {
        'gave-up': true,
        'run-stopped': true,
        'ui-problem': true,
        'left-to-person': true,
        restarted: false,
        'run-finished': false,
        'tab-gone': true,
      },
      includeTitle: true,
      includeErrorLine: false,
      notificationsOffered: true,
    });
    // Saved before any event was stored: version 1's defaults too.
    expect(parseAlertsConfig({ v: 1, url: 'https://ntfy.sh/x' }).events['ui-problem']).toBe(true);
  });

  it('keep the events a person chose, the old defaults of the others with them; a tab gone, new, on', () => {
    const chosen = parseAlertsConfig({ ...v1, events: { 'gave-up': true, 'run-stopped': false, restarted: true } });
    expect(chosen.events).toEqual({
      'gave-up': true,
      'run-stopped': false,
      'ui-problem': false,
      'left-to-person': false,
      restarted: true,
      'run-finished': false,
      'tab-gone': true,
    });
  });

  it('leave anything that is not version 1 to the schema', () => {
    expect(migrateAlertsConfig(undefined)).toBeUndefined();
    expect(migrateAlertsConfig({ v: 2, events: {} })).toEqual({ v: 2, events: {} });
    expect(migrateAlertsConfig({ v: 1, events: 'junk' })).toEqual({ v: 2, events: {} });
  });
});

describe('Telegram and access tokens', () => {
  const token = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9';

  it('a Telegram URL is the Bot API server alone: the token in the address is refused', () => {
    const problem = (url: string) => {
      const checked = checkAlertUrl(url, 'telegram');
      return checked.ok ? checked.url : checked.problem;
    };
    expect(problem('https://api.telegram.org')).toBe('https://api.telegram.org/');
    expect(problem('http://127.0.0.1:8081')).toBe('http://127.0.0.1:8081/');
    expect(problem('https://bots.example.org/telegram')).toBe('https://bots.example.org/telegram');
    expect(problem(`https://api.telegram.org/bot${token}/sendMessage`)).toBe('telegram-path');
    expect(problem('https://api.telegram.org/?chat_id=1')).toBe('telegram-path');
    expect(problem('http://api.telegram.org')).toBe('not-https');
  });

  it('Telegram needs a bot token and a chat; ntfy and JSON take an optional token that fits a header', () => {
    expect(secretProblem('telegram', token, '123456')).toBeNull();
    expect(secretProblem('telegram', token, '-1001234567890')).toBeNull();
    expect(secretProblem('telegram', token, '@night_runs')).toBeNull();
    expect(secretProblem('telegram', null, '1')).toBe('telegram-token');
    expect(secretProblem('telegram', 'AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9', '1')).toBe('telegram-token');
    expect(secretProblem('telegram', token, null)).toBe('telegram-chat');
    expect(secretProblem('telegram', token, '@ab')).toBe('telegram-chat');
    expect(secretProblem('telegram', token, '12 34')).toBe('telegram-chat');
    expect(secretProblem('ntfy', null, null)).toBeNull();
    expect(secretProblem('ntfy', 'tk_abcdef', null)).toBeNull();
    expect(secretProblem('json', 'has space', null)).toBe('token-chars');
    expect(secretProblem('ntfy', 'tökén', null)).toBe('token-chars');
    expect(secretProblem('slack', 'anything at all', null)).toBeNull();
  });

  it('a receiver carries the secrets its kind uses, and none without them', () => {
    const telegram = { ...defaultAlertsConfig(), url: 'https://api.telegram.org', kind: 'auto' as const };
    expect(configuredReceiver(telegram)).toBeNull();
    expect(configuredReceiver({ ...telegram, token, chatId: '42' })).toEqual({
      url: 'https://api.telegram.org/',
      kind: 'telegram',
      permission: 'https://api.telegram.org/*',
      token,
      chatId: '42',
    });
    const slack = { ...defaultAlertsConfig(), url: 'https://hooks.slack.com/services/a/b/c', token: 'x', chatId: '1' };
    expect(configuredReceiver(slack)).toMatchObject({ kind: 'slack', token: null, chatId: null });
    const ntfy = { ...defaultAlertsConfig(), url: 'https://ntfy.sh/t', token: 'tk_abc', chatId: '1' };
    expect(configuredReceiver(ntfy)).toMatchObject({ kind: 'ntfy', token: 'tk_abc', chatId: null });
  });
});

describe("what alerts send, in Firefox's data categories", () => {
  it('activity and content always; browsing activity (the name, the link) only when the name is allowed', () => {
    expect(alertDataCategories({ includeTitle: false })).toEqual(['websiteActivity', 'websiteContent']);
    expect(alertDataCategories({ includeTitle: true })).toEqual([
      'websiteActivity',
      'websiteContent',
      'browsingActivity',
    ]);
  });
});
