import { cut, TEXT_LIMITS } from '../limits';

/** A failed step: a machine-readable reason and what the step saw, for the report shown to the user. */
export interface Fail<R extends string> {
  ok: false;
  reason: R;
  saw: string;
}

export function fail<R extends string>(reason: R, saw: string): Fail<R> {
  return { ok: false, reason, saw: cut(saw, TEXT_LIMITS.detail) };
}
