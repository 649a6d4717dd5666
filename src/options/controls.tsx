import { useState } from 'preact/hooks';
import { type MessageKey, t } from '../lib/i18n';
import { SETTING_BOUNDS, type Settings } from '../state/schema';
import { parseWholeNumber, useDraft } from '../ui/fields';
import type { Save } from './save';

export function Section(props: {
  id: string;
  title: MessageKey;
  intro?: MessageKey;
  children: preact.ComponentChildren;
}) {
  return (
    <section class="card" aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{t(props.title)}</h2>
      {props.intro && <p class="muted">{t(props.intro)}</p>}
      {props.children}
    </section>
  );
}

type NumberName = keyof typeof SETTING_BOUNDS;

export function NumberSetting(props: {
  name: NumberName;
  label: MessageKey;
  hint: MessageKey;
  settings: Settings;
  save: Save;
}) {
  const stored = String(props.settings[props.name]);
  const [draft, setDraft] = useDraft(stored);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function commit() {
    setSaved(false);
    const [min, max] = SETTING_BOUNDS[props.name];
    const value = parseWholeNumber(draft, min, max);
    if (value === null) {
      setError(t('settingWholeNumber', min, max));
      return;
    }
    if (String(value) === stored) {
      setError(null);
      setDraft(stored);
      return;
    }
    const refusal = await props.save({ [props.name]: value });
    setError(refusal);
    setSaved(refusal === null);
    // Shown as stored ("5", not "05" or "5 "), so the field follows changes made elsewhere again.
    if (refusal === null) setDraft(String(value));
  }

  const id = `setting-${props.name}`;
  return (
    <div class="setting">
      <label for={id}>{t(props.label)}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        size={7}
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={`${id}-hint ${id}-message`}
        onInput={(event) => {
          setDraft(event.currentTarget.value);
          setSaved(false);
        }}
        onChange={() => void commit()}
      />
      <p id={`${id}-hint`} class="hint">
        {t(props.hint)}
      </p>
      <p id={`${id}-message`} class={error ? 'error' : 'success'} role={error ? 'alert' : 'status'}>
        {error ?? (saved ? t('saved') : '')}
      </p>
    </div>
  );
}

interface ToggleProps {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  /** Drawn as a switch (role="switch") rather than a checkbox. */
  asSwitch?: boolean;
  /** Shown under the hint, e.g. a permission that went missing. */
  note?: string | null;
  /** Called from the change event itself (a user gesture); resolves to a refusal, or null once done. */
  onToggle: (checked: boolean) => Promise<string | null>;
}

export function Toggle(props: ToggleProps) {
  const [error, setError] = useState<string | null>(null);
  return (
    <div class="toggle">
      <input
        id={props.id}
        type="checkbox"
        role={props.asSwitch ? 'switch' : undefined}
        class={props.asSwitch ? 'switch' : undefined}
        checked={props.checked}
        aria-describedby={`${props.id}-hint`}
        onChange={async (event) => {
          const input = event.currentTarget;
          const wanted = input.checked;
          setError(null);
          const refusal = await props.onToggle(wanted);
          setError(refusal);
          // Refused: nothing changed in storage, so nothing re-renders the box; put it back.
          if (refusal !== null) input.checked = !wanted;
        }}
      />
      <div>
        <label for={props.id}>{props.label}</label>
        <p id={`${props.id}-hint`} class="hint">
          {props.hint}
        </p>
        {props.note && <p class="error">{props.note}</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
