import { type MessageKey, t } from '../lib/i18n';
import type { Verdict } from '../state/schema';

/**
 * The failure a verdict names, in the user's language. Verdicts are stored with their rule's English description;
 * the words shown come from `_locales` by rule id, so a countdown, a notice or last night's history reads in today's
 * language. A rule this version does not name (one a newer version stored) keeps the words it was stored with.
 */

/** Every rule id of detector/rules.ts (RULES, NOTICE_RULES), shell-tail.ts and state/disconnect.ts. */
const NAMED = new Set([
  'torch-cuda-oom',
  'torch-hip-oom',
  'torch-xpu-oom',
  'torch-mps-oom',
  'torch-thc-oom',
  'cuda-error-oom',
  'cublas-alloc-failed',
  'cudnn-alloc-failed',
  'numpy-array-oom',
  'torch-cpu-alloc',
  'torch-posix-memalign',
  'dataloader-killed',
  'oom-killer',
  'child-killed',
  'cuda-device-assert',
  'cuda-kernel-assert',
  'cuda-illegal-access',
  'cuda-sticky-error',
  'tf-cuinit-no-device',
  'cuda-no-device',
  'torch-no-gpus',
  'cuda-driver-init-failed',
  'no-nvidia-driver',
  'nccl-error',
  'dist-backend-error',
  'cudnn-error',
  'cudnn-no-algorithm',
  'tf-cudnn-handle',
  'tf-oom-tensor',
  'tf-dst-tensor',
  'tf-op-requires',
  'tf-cuda-driver-oom',
  'oom-error-class',
  'python-memory-error',
  'cpp-bad-alloc',
  'tf-resource-exhausted',
  'xla-oom',
  'xla-allocation-request',
  'tpu-memory-space',
  'tpu-allocation',
  'tpu-compile-memory',
  'resource-exhausted',
  'colab-ram-crash',
  'colab-unknown-crash',
  'colab-crash-restarting',
  'jupyter-kernel-died',
  'jupyter-kernel-restarting',
  'kernel-restarter',
  'kernel-restarted-log',
  'shell-killed',
  'runtime-disconnected',
  'unable-to-connect',
  'disconnected-disallowed-code',
  'disconnected-zero-units',
  'disconnected-usage-limit',
  'runtime-ended-by-notebook',
  'disconnected-unknown',
]);

const SHELL = 'shell:';
const CUSTOM = 'custom:';

export function verdictName(verdict: Pick<Verdict, 'rule' | 'description'>): string {
  const { rule } = verdict;
  if (rule.startsWith(CUSTOM)) return t('ruleCustom', rule.slice(CUSTOM.length));
  if (rule.startsWith(SHELL)) {
    const inner = ruleKey(rule.slice(SHELL.length));
    return inner ? t('ruleInShell', t(inner)) : verdict.description;
  }
  const key = ruleKey(rule);
  return key ? t(key) : verdict.description;
}

/** `torch-cuda-oom` → `rule_torch_cuda_oom`, for the rules `_locales` names. */
export function ruleKey(rule: string): MessageKey | undefined {
  return NAMED.has(rule) ? (`rule_${rule.replaceAll('-', '_')}` as MessageKey) : undefined;
}
