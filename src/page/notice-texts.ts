import { type MessageKey, t, tn } from '../lib/i18n';
import type { DialogKind } from '../state/dialogs';
import type { DisconnectKind } from '../state/disconnect';
import { gaveUpUnableToConnect, lastAction } from '../state/last-action';
import type { AskChoice, NotebookRecord } from '../state/schema';
import type { Why } from '../state/why';
import { clock, countdownText, foundText } from '../ui/countdown';
import { personOnlyDialog } from '../ui/dialog-words';
import { colabSaid, stepSentence } from '../ui/steps';
import { whyWords } from '../ui/why-text';
import type { NoticeContent } from './notice-box';

/**
 * What the in-page notice says about the notebook's state; null when there is nothing to say. The words are the
 * popup's (ui/text.ts, ui/steps.ts): "PyTorch CUDA out of memory: restart and run all in 0:05".
 */
export function noticeFor(
  record: NotebookRecord,
  cancel: () => void,
  choose: (choice: Extract<AskChoice, 'restart' | 'not-now'>) => void,
): NoticeContent | null {
  const { status } = record;
  switch (status.kind) {
    case 'pending': {
      const what = foundText(status.reason, status.verdict);
      if (status.askedAt !== undefined) {
        return {
          tone: 'warning',
          title: t('noticeAskTitle'),
          body: [status.verdict.line, t('noticeAskBody', what)].filter(Boolean).join('\n'),
          actions: [
            { label: t('noticeRestartNow'), onClick: () => choose('restart') },
            { label: t('noticeNotNow'), onClick: () => choose('not-now') },
          ],
        };
      }
      return {
        tone: 'warning',
        title: t('noticeBrand'),
        body: status.verdict.line || what,
        countdown: { to: status.restartAt, line: (left) => countdownText(status.reason, what, clock(left)) },
        actions: [{ label: t('noticeCancel'), onClick: cancel }],
      };
    }
    case 'restarting':
      return { tone: 'info', title: t('noticeRestartingTitle'), body: t('noticeRestartingBody'), actions: [] };
    case 'gave-up': {
      const outage = gaveUpUnableToConnect(record.history);
      return {
        tone: 'error',
        title: t('noticeGaveUpTitle'),
        body: tn(outage ? 'noticeGaveUpOutageBody' : 'noticeGaveUpBody', status.restarts, status.restarts),
        actions: [],
      };
    }
    case 'ui-problem': {
      const action = lastAction(record.history);
      const said = colabSaid(status.failed);
      const lines = [stepSentence(status.failed, action), t('noticeProblemStopped'), ...(said ? [said] : [])];
      return { tone: 'error', title: t('noticeProblemTitle'), body: lines.join('\n'), actions: [] };
    }
    case 'watching':
      return null;
  }
}

/** The runner's claims were all refused: the countdown is over and nothing will restart by itself. */
export function unclaimedNotice(why: Why, cancel: () => void): NoticeContent {
  return {
    tone: 'error',
    title: t('noticeUnclaimedTitle'),
    body: t('noticeUnclaimedBody', whyWords(why)),
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

/** Why the runtime went away, in a sentence, for each disconnect the guard leaves to the person. */
const LEFT_WORDS: Record<DisconnectKind, MessageKey> = {
  idle: 'noticeLeftUnknown',
  'unable-to-connect': 'noticeLeftUnknown',
  'disallowed-code': 'noticeLeftDisallowedCode',
  'zero-units': 'noticeLeftZeroUnits',
  'usage-limit': 'noticeLeftUsageLimit',
  intended: 'noticeLeftIntended',
  unknown: 'noticeLeftUnknown',
};

/** A disconnect Colab or the notebook meant (or the guard cannot tell): not reconnected, with Colab's words. */
export function leftToPersonNotice(kind: DisconnectKind, said: string): NoticeContent {
  return {
    tone: 'warning',
    title: t('noticeLeftTitle'),
    body: [t(LEFT_WORDS[kind]), t('noticeLeftNotReconnected'), said && t('noticeColabSaid', said)]
      .filter(Boolean)
      .join('\n'),
    actions: [],
  };
}
