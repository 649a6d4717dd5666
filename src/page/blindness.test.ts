import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BLIND_AFTER_MS, KERNEL_WATCH_AFTER_MS } from '../limits';
import { type BlindnessCheck, createBlindnessCheck } from './blindness';

/** What the check did to the page and said, in order. */
let log: string[];
let busy: boolean;
let check: BlindnessCheck;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(0);
  log = [];
  busy = true;
  check = createBlindnessCheck(
    {
      settle: () => log.push('settle'),
      watchKernel: (on) => log.push(`watch ${on}`),
      kernelBusy: () => busy,
    },
    (blind) => log.push(blind ? 'blind' : 'seeing'),
  );
});

afterEach(() => {
  check.stop();
  vi.useRealTimers();
});

const said = () => log.filter((line) => line === 'blind' || line === 'seeing');

describe('the blindness check', () => {
  it('says blind when the runtime stays busy with no cell seen running, watching the button only meanwhile', () => {
    check.check(false);
    vi.advanceTimersByTime(KERNEL_WATCH_AFTER_MS - 1);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['settle', 'watch true']);
    vi.advanceTimersByTime(BLIND_AFTER_MS - KERNEL_WATCH_AFTER_MS - 1);
    expect(said()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['settle', 'watch true', 'settle', 'watch false', 'blind']);
    vi.advanceTimersByTime(10 * BLIND_AFTER_MS);
    expect(said()).toEqual(['blind']);
  });

  it('counts the stretch from when the change that began it was made', () => {
    vi.setSystemTime(5000);
    check.check(false, 4500);
    vi.advanceTimersByTime(BLIND_AFTER_MS - 500 - 1);
    expect(said()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(said()).toEqual(['blind']);
  });

  it('says nothing when the runtime is idle by then, and stops watching the button', () => {
    check.check(false);
    vi.advanceTimersByTime(KERNEL_WATCH_AFTER_MS);
    busy = false;
    vi.advanceTimersByTime(BLIND_AFTER_MS);
    expect(log).toEqual(['settle', 'watch true', 'settle', 'watch false']);
    vi.advanceTimersByTime(10 * BLIND_AFTER_MS);
    expect(said()).toEqual([]);
  });

  it('counts a busy spell from the button’s last change', () => {
    check.check(false);
    vi.advanceTimersByTime(KERNEL_WATCH_AFTER_MS + 1000);
    check.kernelChanged();
    vi.advanceTimersByTime(BLIND_AFTER_MS - 1);
    expect(said()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(said()).toEqual(['blind']);
  });

  it('a change of the button before it is watched does not move the spell', () => {
    check.kernelChanged();
    check.check(false);
    vi.advanceTimersByTime(BLIND_AFTER_MS);
    expect(said()).toEqual(['blind']);
  });

  it('says seeing at the first cell seen running, and again only after a blind spell', () => {
    check.check(true);
    check.check(true);
    expect(said()).toEqual(['seeing']);
    check.check(false);
    vi.advanceTimersByTime(BLIND_AFTER_MS);
    check.check(false);
    expect(said()).toEqual(['seeing', 'blind']);
    check.check(true);
    expect(said()).toEqual(['seeing', 'blind', 'seeing']);
  });

  it('a cell seen running during the stretch ends it: nothing is said, the button is no longer watched', () => {
    check.check(true);
    log.length = 0;
    check.check(false);
    vi.advanceTimersByTime(KERNEL_WATCH_AFTER_MS);
    check.check(true);
    expect(log).toEqual(['settle', 'watch true', 'watch false']);
    vi.advanceTimersByTime(10 * BLIND_AFTER_MS);
    expect(said()).toEqual([]);
  });

  it('reads what waits before it judges, and a cell found running then ends the stretch', () => {
    const running = createBlindnessCheck(
      {
        settle: () => {
          log.push('settle');
          running.check(true);
        },
        watchKernel: (on) => log.push(`watch ${on}`),
        kernelBusy: () => true,
      },
      (blind) => log.push(blind ? 'blind' : 'seeing'),
    );
    running.check(false);
    vi.advanceTimersByTime(10 * BLIND_AFTER_MS);
    expect(log).toEqual(['settle', 'seeing']);
    running.stop();
  });

  it('sets no timer once stopped', () => {
    check.check(false);
    check.stop();
    vi.advanceTimersByTime(10 * BLIND_AFTER_MS);
    expect(log).toEqual([]);
  });
});

describe('the blindness check on a real clock', () => {
  it('watches the button a second into a stretch, whatever the time of day', () => {
    vi.setSystemTime(1_764_300_000_000);
    check.check(false);
    vi.advanceTimersByTime(999);
    expect(log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['settle', 'watch true']);
  });

  it('a stretch that ended before the button was watched reads nothing when its timer comes', () => {
    check.check(false);
    vi.advanceTimersByTime(500);
    check.check(true);
    vi.advanceTimersByTime(10 * 60_000);
    expect(log).toEqual(['seeing']);
  });

  it('a new stretch under an older timer is watched only once it has lasted its own second', () => {
    check.check(true);
    log.length = 0;
    check.check(false);
    vi.advanceTimersByTime(500);
    check.check(true);
    check.check(false);
    vi.advanceTimersByTime(500);
    expect(log).toEqual(['settle']);
    vi.advanceTimersByTime(499);
    expect(log).toEqual(['settle']);
    vi.advanceTimersByTime(1);
    expect(log).toEqual(['settle', 'settle', 'watch true']);
  });

  it('a change of the button before the stretch is no reason to skip watching it', () => {
    check.kernelChanged();
    check.check(false);
    vi.advanceTimersByTime(2 * 60_000);
    expect(log.slice(0, 2)).toEqual(['settle', 'watch true']);
    expect(said()).toEqual(['blind']);
  });
});
