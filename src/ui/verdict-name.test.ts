import { describe, expect, it, vi } from 'vitest';
import english from '../../public/_locales/en/messages.json';
import { NOTICE_RULES, RULES } from '../detector/rules';
import { DISCONNECT_KINDS, disconnectVerdict } from '../state/disconnect';
import { ruleKey, verdictName } from './verdict-name';

vi.mock('../lib/i18n', async () => {
  const { translate } = await import('../../test/support/messages');
  return { t: translate };
});

const messages = english as Record<string, { message: string } | undefined>;

describe('verdictName', () => {
  it('names every rule the detector has, with its description as the English words', () => {
    const rules = [...RULES, ...NOTICE_RULES].map(({ id, description }) => ({ rule: id, description }));
    const disconnects = DISCONNECT_KINDS.map((kind) => disconnectVerdict(kind, ''));
    const shellKilled = {
      rule: 'shell-killed',
      description: 'A process started from a shell cell was killed (SIGKILL: the Linux OOM killer)',
    };
    for (const verdict of [...rules, ...disconnects, shellKilled]) {
      const key = ruleKey(verdict.rule);
      expect(key, verdict.rule).toBeDefined();
      expect(messages[key ?? '']?.message, verdict.rule).toBe(verdict.description);
      expect(verdictName(verdict)).toBe(verdict.description);
    }
  });

  it('names a shell process, a custom pattern, and keeps the stored words of a rule it does not know', () => {
    expect(verdictName({ rule: 'shell:torch-cuda-oom', description: 'x' })).toBe(
      'PyTorch CUDA out of memory, in a process started from a shell cell',
    );
    expect(verdictName({ rule: 'custom:/Loss is NaN/', description: 'x' })).toBe('Your failure pattern /Loss is NaN/');
    expect(verdictName({ rule: 'shell:from-the-future', description: 'Stored words' })).toBe('Stored words');
    expect(verdictName({ rule: 'from-the-future', description: 'Stored words' })).toBe('Stored words');
  });
});
