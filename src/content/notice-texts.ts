import { type DialogKind, personOnlyDialog } from '../colab';
import { t } from '../lib/i18n';
import type { NotebookRecord, RestartAction, RestartReason } from '../state/schema';
import type { NoticeContent } from './notice-box';

/** What the in-page notice says about the notebook's state; null when there is nothing to say. */

const TITLES: Record<RestartReason, () => string> = {
  failure: () => t('noticeOomTitle'),
  crash: () => t('noticeCrashTitle'),
  marker: () => t('noticeMarkerTitle'),
  disconnect: () => t('noticeDisconnectTitle'),
};

const COUNTDOWNS: Record<RestartAction, () => string> = {
  'restart-and-run-all': () => t('noticeRestartIn'),
  'run-all': () => t('noticeRunAllIn'),
  'reconnect-and-run-all': () => t('noticeReconnectIn'),
};

export function noticeFor(record: NotebookRecord, cancel: () => void): NoticeContent | null {
  const { status } = record;
  switch (status.kind) {
    case 'pending': {
      const what = status.verdict.line
        ? `${status.verdict.description}: ${status.verdict.line}`
        : status.verdict.description;
      return {
        tone: 'warning',
        title: TITLES[status.reason](),
        body: what,
        countdown: { to: status.restartAt, template: COUNTDOWNS[status.action]() },
        actions: [{ label: t('noticeCancel'), onClick: cancel }],
      };
    }
    case 'restarting':
      return { tone: 'info', title: t('noticeRestartingTitle'), body: t('noticeRestartingBody'), actions: [] };
    case 'gave-up':
      return {
        tone: 'error',
        title: t('noticeGaveUpTitle'),
        body: t('noticeGaveUpBody', String(status.restarts)),
        actions: [],
      };
    case 'ui-problem':
      return {
        tone: 'error',
        title: t('noticeProblemTitle'),
        body: t('noticeProblemBody', status.step, status.detail),
        actions: [],
      };
    case 'watching':
      return null;
  }
}

/** The runner's claims were all refused: the countdown is over and nothing will restart by itself. */
export function unclaimedNotice(reason: string, cancel: () => void): NoticeContent {
  return {
    tone: 'error',
    title: t('noticeUnclaimedTitle'),
    body: t('noticeUnclaimedBody', reason),
    actions: [{ label: t('noticeCancel'), onClick: cancel }],
  };
}

/** The one place that decides which of Colab's dialogs need a person (colab/dialogs.ts says which); null for others. */
export function needsPersonNotice(kind: DialogKind): NoticeContent | null {
  const words = personOnlyDialog(kind);
  if (!words) return null;
  return {
    tone: 'warning',
    title: t('noticeNeedsPersonTitle'),
    body: t('noticeNeedsPersonBody', t(words)),
    actions: [],
  };
}
