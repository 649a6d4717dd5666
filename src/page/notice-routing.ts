import {
  type DialogKind,
  dialogText,
  disconnectKind,
  type NoticeKind,
  noticeWords,
  type PageHandlers,
  toastDisconnect,
} from '../colab';
import type { Detector, Verdict } from '../detector';
import type { ExecutionGate } from '../detector/execution-gate';
import { cut, TEXT_LIMITS } from '../limits';
import type { DisconnectKind } from '../state/disconnect';
import type { DeclineReason } from '../state/schema';
import type { RuntimeEnds } from './runtime-end';

/** Whom Colab's notices are told to. */
export interface NoticeReports {
  crash(verdict: Verdict, startedAt: number): void;
  declined(reason: DeclineReason, verdict: Verdict, startedAt: number): void;
  disconnect(kind: DisconnectKind, text: string): void;
  dialog(kind: DialogKind, text: string): void;
}

/**
 * Colab's notices, routed: a disconnect, by toast or dialog, with why (runtime-end.ts: one that follows the notebook's
 * own `unassign()` is intended); a crash toast, a failure of the executions it may have ended, noted and left alone
 * when this page saw none run (a notebook opened after the crash, a tab restored in the morning); any other dialog.
 */
export function routeNotices(
  gate: ExecutionGate,
  detector: () => Detector,
  runtimeEnds: RuntimeEnds,
  reports: NoticeReports,
): Required<Pick<PageHandlers, 'toast' | 'dialogOpened'>> {
  const runtimeGone = (kind: NoticeKind, text: string) => {
    const why = runtimeEnds.notice(kind);
    if (why) reports.disconnect(why, cut(text, TEXT_LIMITS.dialog));
  };
  return {
    toast(text) {
      const gone = toastDisconnect(text);
      if (gone) return runtimeGone(gone, text);
      const verdict = detector().classifyNotice(text);
      if (!verdict) return;
      if (gate.sawExecution()) reports.crash(verdict, gate.crashStartedAt(Date.now()));
      else reports.declined('crash-without-run', verdict, Date.now());
    },
    dialogOpened(kind, dialog) {
      if (kind === 'disconnected') runtimeGone(disconnectKind(dialogText(dialog)), noticeWords(dialog));
      else reports.dialog(kind, cut(noticeWords(dialog), TEXT_LIMITS.dialog));
    },
  };
}
