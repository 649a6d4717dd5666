import { useEffect, useRef, useState } from 'preact/hooks';
import { type MessageKey, t, tn } from '../lib/i18n';
import { megabytes } from '../lib/units';
import { IMPORT_MAX_CHARS } from '../limits';
import { defaultSettings } from '../state/schema';
import { loadAllNotebooks, loadSettings } from '../state/store';
import { exportData } from '../state/transfer';
import { errorText, sendUi } from '../ui/send';
import { whyWords } from '../ui/why-text';
import { downloadJson } from './download';

type Outcome = { ok: boolean; message: string } | null;

export function DataTools({ afterChange }: { afterChange: () => Promise<void> }) {
  const [exported, setExported] = useState<Outcome>(null);
  const [imported, setImported] = useState<Outcome>(null);
  const [cleared, setCleared] = useState<Outcome>(null);
  const [restored, setRestored] = useState<Outcome>(null);

  async function doExport() {
    try {
      const file = exportData(await loadSettings(), await loadAllNotebooks());
      downloadJson(file, `colab-oom-guard-${file.exportedAt.slice(0, 10)}.json`);
      setExported({ ok: true, message: tn('exportDone', file.notebooks.length, file.notebooks.length) });
    } catch (error) {
      setExported({ ok: false, message: t('exportFailed', errorText(error)) });
    }
  }

  async function doImport(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setImported(null);
    // Checked before reading: a huge file would be read whole into memory first.
    if (file.size > IMPORT_MAX_CHARS) {
      input.value = '';
      setImported({
        ok: false,
        message: t('importTooLarge', file.name, megabytes(file.size), megabytes(IMPORT_MAX_CHARS)),
      });
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setImported({ ok: false, message: t('importUnreadable', errorText(error)) });
      return;
    } finally {
      input.value = '';
    }
    const reply = await sendUi({ type: 'ui-import', text });
    if (reply.ok) {
      setImported({ ok: true, message: tn('importDone', reply.notebooks, file.name, reply.notebooks) });
      await afterChange();
    } else {
      setImported({ ok: false, message: t('importRefused', file.name, whyWords(reply.why)) });
    }
  }

  /** Settings only: every notebook, its switch and its history stay. */
  async function doRestore() {
    const { v: _version, ...patch } = defaultSettings();
    const reply = await sendUi({ type: 'ui-settings', patch });
    setRestored(reply.ok ? { ok: true, message: t('restoreDone') } : { ok: false, message: whyWords(reply.why) });
    if (reply.ok) await afterChange();
  }

  async function doClear() {
    const reply = await sendUi({ type: 'ui-clear' });
    setCleared(reply.ok ? { ok: true, message: t('clearDone') } : { ok: false, message: whyWords(reply.why) });
    if (reply.ok) await afterChange();
  }

  return (
    <div class="data">
      <div class="row">
        <button type="button" onClick={() => void doExport()}>
          {t('exportButton')}
        </button>
        <Result outcome={exported} />
      </div>

      <div class="import">
        <label for="import-file">{t('importLabel')}</label>
        <input
          id="import-file"
          type="file"
          accept="application/json,.json"
          aria-describedby="import-hint import-result"
          onChange={(event) => void doImport(event.currentTarget)}
        />
        <p id="import-hint" class="hint">
          {t('importHint')}
        </p>
        <Result id="import-result" outcome={imported} />
      </div>

      <div class="clear">
        <Confirmed
          button="restoreButton"
          question="restoreQuestion"
          confirm="restoreConfirm"
          keep="restoreKeep"
          onConfirm={doRestore}
        />
        <Result outcome={restored} />
      </div>

      <div class="clear">
        <Confirmed
          danger
          button="clearButton"
          question="clearQuestion"
          confirm="clearConfirm"
          keep="clearKeep"
          onConfirm={doClear}
        />
        <Result outcome={cleared} />
      </div>
    </div>
  );
}

/**
 * A button that asks before it acts. The question takes the focus on the safe answer, and the focus goes back to the
 * button afterwards, so keyboard users never lose their place.
 */
function Confirmed(props: {
  button: MessageKey;
  question: MessageKey;
  confirm: MessageKey;
  keep: MessageKey;
  onConfirm: () => Promise<void>;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  const askButton = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) keepButton.current?.focus();
    else if (wasAsking.current) askButton.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const questionId = `${props.button}-question`;
  if (!asking) {
    return (
      <button type="button" class={props.danger ? 'danger' : ''} ref={askButton} onClick={() => setAsking(true)}>
        {t(props.button)}
      </button>
    );
  }
  return (
    <fieldset aria-labelledby={questionId} class={`confirm ${props.danger ? 'confirm-danger' : ''}`}>
      <p id={questionId}>{t(props.question)}</p>
      <div class="row">
        <button
          type="button"
          class={props.danger ? 'danger' : 'primary'}
          onClick={async () => {
            await props.onConfirm();
            setAsking(false);
          }}
        >
          {t(props.confirm)}
        </button>
        <button type="button" ref={keepButton} onClick={() => setAsking(false)}>
          {t(props.keep)}
        </button>
      </div>
    </fieldset>
  );
}

function Result({ outcome, id }: { outcome: Outcome; id?: string }) {
  return (
    <p
      id={id}
      role={outcome && !outcome.ok ? 'alert' : 'status'}
      class={outcome ? (outcome.ok ? 'success' : 'error') : ''}
    >
      {outcome?.message ?? ''}
    </p>
  );
}
