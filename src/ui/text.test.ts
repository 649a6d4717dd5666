import { describe, expect, it, vi } from 'vitest';
import { UI_STEPS, type UiStep } from '../state/failed-step';
import { clock, countdownText } from './countdown';
import { stepSentence, stepWords } from './steps';

vi.mock('../lib/i18n', async () => {
  const { translate, translateCounted } = await import('../../test/support/messages');
  return { t: translate, tn: translateCounted };
});

const failed = (step: UiStep, reason = '', saw = '') => ({ step, reason, saw });

describe('the countdown', () => {
  it('shows the time left in m:ss, and h:mm:ss past an hour', () => {
    expect([0, 5, 9.2, 59, 60, 65, 300, 3599, 3600, 86_400].map(clock)).toEqual([
      '0:00',
      '0:05',
      '0:10',
      '0:59',
      '1:00',
      '1:05',
      '5:00',
      '59:59',
      '1:00:00',
      '24:00:00',
    ]);
  });

  it('says what was found and what will happen', () => {
    expect(countdownText('failure', 'CUDA out of memory', '0:05')).toBe(
      'CUDA out of memory: restart and run all in 0:05',
    );
    expect(countdownText('crash', "Colab's RAM crash", '0:05')).toBe('Run all in 0:05');
    expect(countdownText('marker', 'ignored', '0:05')).toBe('Your restart marker: restart and run all in 0:05');
    expect(countdownText('disconnect', 'Runtime disconnected', '0:10')).toBe(
      'Runtime disconnected: reconnect and run all in 0:10',
    );
    expect(countdownText('disconnect', 'Colab could not connect to the runtime', '0:10')).toBe(
      'Colab could not connect to the runtime: reconnect and run all in 0:10',
    );
  });
});

describe('failed steps in words', () => {
  it('has words for every step, never its id', () => {
    const unknown = stepWords(failed('unknown'));
    expect(stepWords({ step: 'no-such-step' as UiStep, reason: '', saw: '' })).toBe(unknown);
    for (const step of UI_STEPS.filter((s) => s !== 'unknown')) {
      const words = stepWords(failed(step, 'colab.example.com'));
      expect(words, step).not.toBe(unknown);
      // Ids that are no English words never show ("reconnect" may).
      if (step.includes('-') || step === 'precheck') expect(words, step).not.toContain(step);
    }
  });

  it('names what the restart was doing, and the dialog only a person may answer', () => {
    expect(stepWords(failed('find-item', 'item-missing'), 'restart-and-run-all')).toBe(
      'could not find Runtime → Restart session and run all',
    );
    expect(stepWords(failed('find-item', 'item-missing'), 'run-all')).toBe('could not find Runtime → Run all');
    expect(stepWords(failed('find-item', 'item-disabled', '…'), 'restart-and-run-all')).toBe(
      'Runtime → Restart session and run all is greyed out (Colab does that while no runtime is connected)',
    );
    expect(stepWords(failed('verify', 'no-run-started'), 'reconnect-and-run-all')).toBe(
      'no cell started running after Run all',
    );
    expect(stepWords(failed('precheck', 'recaptcha', 'I am not a robot'))).toBe(
      'Colab showed a "Are you a robot?" check when the restart was due',
    );
    expect(stepWords(failed('precheck', 'unknown'))).toBe('a Colab dialog was open when the restart was due');
    expect(stepWords(failed('open-menu', 'menubar-missing', 'toolbar fallback: toolbar-missing'))).toBe(
      "could not open the Runtime menu: Colab's menu bar is missing",
    );
    expect(stepSentence(failed('confirm', 'other-dialog', 'usage-limit'))).toBe(
      'The dialog Colab showed was not the restart confirmation.',
    );
  });

  it("reads a reason this version does not know (an earlier one's, stored) as the step's usual words", () => {
    const usual = stepWords(failed('open-menu', 'menu-did-not-open'));
    expect(usual).toBe('could not open the Runtime menu');
    for (const reason of ['menu-gone', 'constructor', '__proto__', 'toolbar-missing']) {
      expect(stepWords(failed('open-menu', reason)), reason).toBe(usual);
    }
    expect(stepWords(failed('open-menu', 'header-collapsed'))).not.toBe(usual);
    expect(stepWords(failed('reconnect', 'no-longer-a-reason'))).toBe(stepWords(failed('reconnect', 'dialog-open')));
    expect(stepWords(failed('reconnect', 'unable-to-connect'))).not.toBe(stepWords(failed('reconnect', 'dialog-open')));
  });
});
