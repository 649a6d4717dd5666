import { type MessageKey, t } from '../lib/i18n';
import type { Category } from '../state/schema';

const CATEGORY_KEYS: Record<Category, { label: MessageKey; hint: MessageKey }> = {
  'gpu-oom': { label: 'categoryGpuOom', hint: 'categoryGpuOomHint' },
  'tf-oom': { label: 'categoryTfOom', hint: 'categoryTfOomHint' },
  'jax-oom': { label: 'categoryJaxOom', hint: 'categoryJaxOomHint' },
  'host-ram': { label: 'categoryHostRam', hint: 'categoryHostRamHint' },
  'colab-crash': { label: 'categoryColabCrash', hint: 'categoryColabCrashHint' },
  'colab-crash-unknown': { label: 'categoryColabCrashUnknown', hint: 'categoryColabCrashUnknownHint' },
  'gpu-fault': { label: 'categoryGpuFault', hint: 'categoryGpuFaultHint' },
};

export function categoryLabel(category: Category): string {
  return t(CATEGORY_KEYS[category].label);
}

export function categoryHint(category: Category): string {
  return t(CATEGORY_KEYS[category].hint);
}
