import type { Verdict } from './schema';

/**
 * Why a runtime went away, as the page tells it (src/colab/disconnect.ts reads Colab's words): the body of the
 * "Runtime disconnected" dialog decides, never its title (REFERENCE.md §5.2, §12.4). Only two are answered with the
 * setting on: an idle time-out or maximum duration, and Colab failing to connect during an outage. Every other one
 * Colab or the notebook meant, or the guard cannot tell: it is left to the person.
 */
export const DISCONNECT_KINDS = [
  'idle',
  'unable-to-connect',
  'disallowed-code',
  'zero-units',
  'usage-limit',
  /** The notebook ended its own runtime (`google.colab.runtime.unassign()`, §12.4). */
  'intended',
  'unknown',
] as const;
export type DisconnectKind = (typeof DISCONNECT_KINDS)[number];

export function answersDisconnect(kind: DisconnectKind): boolean {
  return kind === 'idle' || kind === 'unable-to-connect';
}

/**
 * The verdict a disconnect is stored with: a stable rule id and a short description (history becomes typed data),
 * and Colab's own words as its line. The idle one keeps the rule it always had.
 */
const WORDS: Record<DisconnectKind, { rule: string; description: string }> = {
  idle: { rule: 'runtime-disconnected', description: 'Runtime disconnected' },
  'unable-to-connect': { rule: 'unable-to-connect', description: 'Colab could not connect to the runtime' },
  'disallowed-code': { rule: 'disconnected-disallowed-code', description: 'Runtime disconnected: disallowed code' },
  'zero-units': { rule: 'disconnected-zero-units', description: 'Runtime disconnected: no compute units' },
  'usage-limit': { rule: 'disconnected-usage-limit', description: 'Runtime disconnected: usage limits' },
  intended: { rule: 'runtime-ended-by-notebook', description: 'Runtime ended by the notebook' },
  unknown: { rule: 'disconnected-unknown', description: 'Runtime disconnected: unrecognised message' },
};

export function disconnectVerdict(kind: DisconnectKind, line: string): Verdict {
  return { category: 'colab-crash', ...WORDS[kind], line };
}

/** The kind a stored disconnect verdict names, or null for any other verdict. */
export function disconnectKindOf(verdict: Verdict | undefined): DisconnectKind | null {
  if (!verdict) return null;
  return DISCONNECT_KINDS.find((kind) => WORDS[kind].rule === verdict.rule) ?? null;
}
