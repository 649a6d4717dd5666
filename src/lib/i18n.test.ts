import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fallBackToEnglish } from './english-fallback';
import { setFallbackMessages, t } from './i18n';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

describe('t when the browser answers an empty string', () => {
  afterEach(() => {
    setFallbackMessages({});
    vi.restoreAllMocks();
  });

  it('says the key where no bundle was given (content scripts)', () => {
    vi.spyOn(fakeBrowser.i18n, 'getMessage').mockReturnValue('');
    expect(t('stateWatching')).toBe('stateWatching');
  });

  it('says the English message with its substitutions where the pages gave the bundle', () => {
    vi.spyOn(fakeBrowser.i18n, 'getMessage').mockReturnValue('');
    fallBackToEnglish();
    expect(t('stateWatching')).toBe('Watching');
    expect(t('countdownRestart', 'CUDA out of memory', '0:30')).toBe('CUDA out of memory: restart and run all in 0:30');
  });

  it('keeps what the browser says when it says something', () => {
    vi.spyOn(fakeBrowser.i18n, 'getMessage').mockReturnValue('Überwacht');
    fallBackToEnglish();
    expect(t('stateWatching')).toBe('Überwacht');
  });
});
