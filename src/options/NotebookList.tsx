import { useState } from 'preact/hooks';
import { t, tn } from '../lib/i18n';
import type { Command } from '../messaging/protocol';
import type { NotebookRecord, Settings } from '../state/schema';
import { isScratchKey } from '../state/scratch';
import { loadSettings } from '../state/store';
import { exportFileName, exportNotebook } from '../state/transfer';
import { useAllNotebooks, useNow } from '../ui/hooks';
import { nightLine } from '../ui/night-text';
import { errorText, sendCommand } from '../ui/send';
import { describeStatus } from '../ui/status-view';
import { statusText } from '../ui/text';
import { whyWords } from '../ui/why-text';
import { downloadJson } from './download';

/** The notebooks with a record (switched on, or given their own Max restarts), by name: switch one off, reset it. */
export function NotebookList({ settings }: { settings: Settings }) {
  const notebooks = useAllNotebooks();
  const now = useNow(1000);
  if (!notebooks.value) return <p class="muted">{t('loading')}</p>;
  if (notebooks.value.length === 0) return <p class="muted">{t('optionsNotebooksEmpty')}</p>;
  const named = notebooks.value.map((record) => ({ record, name: record.title || record.key }));
  named.sort((a, b) => a.name.localeCompare(b.name));
  return (
    <ul class="notebook-list">
      {named.map(({ record, name }) => (
        <NotebookRow key={record.key} record={record} name={name} settings={settings} now={now} />
      ))}
    </ul>
  );
}

function NotebookRow(props: { record: NotebookRecord; name: string; settings: Settings; now: number }) {
  const { record, name } = props;
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const view = describeStatus(record, props.settings, props.now);

  async function run(command: Command): Promise<boolean> {
    setError(null);
    setSaved(null);
    const reply = await sendCommand(record.key, command);
    if (!reply.ok) setError(whyWords(reply.why));
    return reply.ok;
  }

  return (
    <li class="notebook-row" data-state={view.state}>
      <div class="notebook-row-text">
        <p class="notebook-name" title={record.key}>
          {name}
        </p>
        <p class="hint">
          {statusText(view, record).headline} · {tn('notebookUsed', view.max, view.used, view.max)}
        </p>
        <p class="hint">{nightLine(record.history, props.now, { t, tn })}</p>
        {isScratchKey(record.key) && <p class="hint">{t('notebookScratch')}</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {saved && (
          <p class="success" role="status">
            {saved}
          </p>
        )}
      </div>
      <input
        type="checkbox"
        role="switch"
        class="switch"
        checked={record.enabled}
        aria-checked={record.enabled}
        aria-label={t('notebookSwitch', name)}
        onChange={async (event) => {
          const input = event.currentTarget;
          const wanted = input.checked;
          // Refused: storage did not change, so nothing re-renders the switch; put it back.
          if (!(await run({ type: 'set-enabled', enabled: wanted }))) input.checked = !wanted;
        }}
      />
      <button
        type="button"
        aria-label={t('notebookResetLabel', name)}
        onClick={() => void run({ type: 'reset-counter' })}
      >
        {t('notebookReset')}
      </button>
      {!isScratchKey(record.key) && (
        <button
          type="button"
          aria-label={t('notebookExportLabel', name)}
          onClick={() => {
            void downloadNotebook(record, name).then(
              (file) => setSaved(t('notebookExportDone', file)),
              (failure) => setError(t('exportFailed', errorText(failure))),
            );
          }}
        >
          {t('notebookExport')}
        </button>
      )}
    </li>
  );
}

/** Downloads one notebook's export; resolves to the file's name. */
async function downloadNotebook(record: NotebookRecord, name: string): Promise<string> {
  const file = exportNotebook(await loadSettings(), record);
  const fileName = exportFileName(name, file.exportedAt);
  downloadJson(file, fileName);
  return fileName;
}
