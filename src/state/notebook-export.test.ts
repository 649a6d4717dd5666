import { describe, expect, it } from 'vitest';
import { defaultNotebook, defaultSettings } from './schema';
import { exportFileName, exportNotebook, parseImport } from './transfer';

describe("one notebook's export", () => {
  const record = {
    ...defaultNotebook('drive:1AbC'),
    enabled: true,
    title: 'Train ResNet.ipynb',
    history: [{ at: 1_700_000_000_000, type: 'run-finished' as const }],
  };

  it('is the whole export with that notebook alone, versioned, which the import reads back', () => {
    const file = exportNotebook(defaultSettings(), record, Date.UTC(2026, 10, 28));
    expect(file).toMatchObject({ format: 'colab-oom-guard', exportedAt: '2026-11-28T00:00:00.000Z' });
    expect(file.version).toEqual(expect.any(Number));
    expect(file.notebooks).toEqual([record]);
    const back = parseImport(JSON.stringify(file));
    expect(back).toMatchObject({ ok: true, notebooks: [{ key: 'drive:1AbC', history: record.history }] });
  });

  it('is named after the notebook and the day, as a file name can hold it', () => {
    expect(exportFileName('Train ResNet.ipynb', '2026-11-28T00:00:00.000Z')).toBe(
      'colab-oom-guard-train-resnet-2026-11-28.json',
    );
    expect(exportFileName('Übung: ä/ö?', '2026-11-28T00:00:00.000Z')).toBe('colab-oom-guard-ubung-a-o-2026-11-28.json');
    expect(exportFileName('ノート', '2026-11-28T00:00:00.000Z')).toBe('colab-oom-guard-notebook-2026-11-28.json');
  });
});

describe("an export's file name at its edges", () => {
  const named = (name: string) => exportFileName(name, '2026-11-28T00:00:00.000Z');

  it('keeps at most 60 characters of the name, never ending on a dash', () => {
    expect(named('x'.repeat(100))).toBe(`colab-oom-guard-${'x'.repeat(60)}-2026-11-28.json`);
    expect(named(`${'a'.repeat(59)} bcd`)).toBe(`colab-oom-guard-${'a'.repeat(59)}-2026-11-28.json`);
  });

  it('drops .ipynb only at the end', () => {
    expect(named('a.ipynb.backup')).toBe('colab-oom-guard-a-ipynb-backup-2026-11-28.json');
  });
});
