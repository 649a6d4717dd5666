import { awaitReconnect, captureNotices, reconnect, restartAndRunAll, runAll } from '../colab';
import { t } from '../lib/i18n';
import { loadNotebook, loadSettings, watchNotebook, watchSettings } from '../state/store';
import type { SessionDeps } from './notebook-session';
import { leftToPersonNotice, needsPersonNotice, noticeFor, unclaimedNotice } from './notice-texts';
import { createPageWatch } from './page-watch';
import { watchPresence } from './presence';
import { listenToOutputFrames } from './receive-frame-reports';
import { sendToWorker } from './send-to-worker';

/** The notebook session's collaborators as a Colab page runs them: the one place that wires the real ones. */
export const liveSessionDeps: SessionDeps = {
  sendToWorker,
  store: { loadNotebook, loadSettings, watchNotebook, watchSettings },
  createPageWatch,
  listenToOutputFrames,
  watchPresence,
  colab: { restartAndRunAll, runAll, reconnect, awaitReconnect, captureNotices },
  notices: {
    noticeFor,
    unclaimedNotice,
    leftToPersonNotice,
    needsPersonNotice,
    dismiss: () => t('noticeDismiss'),
    locale: () => t('messagesLocale'),
  },
};
