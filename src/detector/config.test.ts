import { describe, expect, it } from 'vitest';
import { ALL_ON, configWith, DEFAULTS } from '../../test/support/detector-configs';
import {
  CATEGORIES,
  createDetector,
  DEFAULT_CATEGORIES,
  loadDetector,
  MAX_TEXT_CHARS,
  MAX_USER_LINE_CHARS,
  MAX_USER_LINES,
  testOutput,
} from './index';
import * as engine from './patterns';

const CUDA_OOM =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 14.74 GiB ' +
  'of which 1.12 GiB is free.';
const ASSERT = 'RuntimeError: CUDA error: device-side assert triggered';

describe('categories', () => {
  it('are listed in display order, all on by default except the unknown-reason crash and gpu-fault', () => {
    expect(CATEGORIES).toEqual([
      'gpu-oom',
      'tf-oom',
      'jax-oom',
      'host-ram',
      'colab-crash',
      'colab-crash-unknown',
      'gpu-fault',
    ]);
    expect(CATEGORIES.filter((c) => !DEFAULT_CATEGORIES[c])).toEqual(['colab-crash-unknown', 'gpu-fault']);
  });

  it('keep the unknown-reason crash apart from the RAM crash: only its own switch acts on it', () => {
    const unknown = 'Your session crashed for an unknown reason.';
    expect(createDetector(configWith({})).classifyNotice(unknown)).toBeNull();
    expect(createDetector(configWith({ 'colab-crash-unknown': true })).classifyNotice(unknown)).toMatchObject({
      category: 'colab-crash-unknown',
      rule: 'colab-unknown-crash',
    });
    const ram = 'Your session crashed after using all available RAM.';
    expect(
      createDetector(configWith({ 'colab-crash-unknown': true, 'colab-crash': false })).classifyNotice(ram),
    ).toBeNull();
  });

  it('silence their rules when off', () => {
    expect(createDetector(configWith({ 'gpu-oom': false })).classifyError(CUDA_OOM)).toBeNull();
    expect(createDetector(configWith({ 'host-ram': false })).classifyError('MemoryError')).toBeNull();
    expect(
      createDetector(configWith({ 'colab-crash': false })).classifyNotice(
        'Your session crashed after using all available RAM.',
      ),
    ).toBeNull();
  });

  it('leave GPU faults alone by default', () => {
    expect(createDetector(DEFAULTS).classifyError(ASSERT)).toBeNull();
    expect(createDetector(configWith({ 'gpu-fault': true })).classifyError(ASSERT)?.category).toBe('gpu-fault');
  });

  it('let an earlier line of an enabled category decide when a later line belongs to a disabled one', () => {
    const text = [CUDA_OOM, '', 'During handling of the above exception, another exception occurred:', '', ASSERT].join(
      '\n',
    );
    expect(createDetector(DEFAULTS).classifyError(text)?.rule).toBe('torch-cuda-oom');
    expect(createDetector(ALL_ON).classifyError(text)?.rule).toBe('cuda-device-assert');
  });

  it('do not let a disabled class rule fall through to another category on the same line', () => {
    const tfWithXlaMessage = 'ResourceExhaustedError: Out of memory while trying to allocate 1073741824 bytes.';
    expect(createDetector(ALL_ON).classifyError(tfWithXlaMessage)?.category).toBe('tf-oom');
    expect(createDetector(configWith({ 'tf-oom': false })).classifyError(tfWithXlaMessage)).toBeNull();
  });
});

describe('custom failure patterns', () => {
  it('yield a custom verdict with the pattern in the rule id', () => {
    const detector = createDetector(configWith({}, { failurePatterns: ['Trainer stalled: no progress'] }), engine);
    expect(detector.classifyError('step 100\nTrainer stalled: no progress for 600 s\n')).toEqual({
      category: 'custom',
      rule: 'custom:Trainer stalled: no progress',
      description: 'Your failure pattern Trainer stalled: no progress',
      line: 'Trainer stalled: no progress for 600 s',
    });
  });

  it('are compiled as written: case-sensitive, unless written as a /literal/i', () => {
    const plain = createDetector(configWith({}, { failurePatterns: ['nan loss'] }), engine);
    expect(plain.classifyError('NaN loss detected')).toBeNull();
    const literal = createDetector(configWith({}, { failurePatterns: ['/nan loss/i'] }), engine);
    expect(literal.classifyError('NaN loss detected')?.rule).toBe('custom:/nan loss/i');
  });

  it('come after the built-in rules, and work even with every category off', () => {
    const failurePatterns = ['out of memory'];
    expect(createDetector(configWith({}, { failurePatterns }), engine).classifyError(CUDA_OOM)?.rule).toBe(
      'torch-cuda-oom',
    );
    const allOff = configWith(Object.fromEntries(CATEGORIES.map((c) => [c, false])), { failurePatterns });
    expect(createDetector(allOff, engine).classifyError(CUDA_OOM)?.category).toBe('custom');
  });

  it('keep the verdict within 300 characters per field, even for a long pattern', () => {
    const source = `${'x'.repeat(350)}|stalled`;
    const verdict = createDetector(configWith({}, { failurePatterns: [source] }), engine).classifyError('stalled');
    expect(verdict?.rule).toBe(`${`custom:${source}`.slice(0, 299)}…`);
    expect(verdict?.description.length).toBe(300);
  });

  it('see lines without colour codes', () => {
    const detector = createDetector(configWith({}, { failurePatterns: ['^FATAL: '] }), engine);
    expect(detector.classifyError('\x1b[1;31mFATAL: \x1b[0mdataset shard missing')?.line).toBe(
      'FATAL: dataset shard missing',
    );
  });

  it('skip invalid patterns instead of throwing', () => {
    const detector = createDetector(configWith({}, { failurePatterns: ['(', '', '(?=ok)', 'ok then'] }), engine);
    expect(detector.classifyError('ok then')?.rule).toBe('custom:ok then');
  });

  it('run only with the pattern engine, which loadDetector imports when there are patterns', async () => {
    const config = configWith({}, { failurePatterns: ['stalled'], markerPatterns: ['@@RESTART@@'] });
    expect(createDetector(config).classifyError('Trainer stalled')).toBeNull();
    expect(createDetector(config).hasMarkers).toBe(false);
    const loaded = await loadDetector(config);
    expect(loaded.classifyError('Trainer stalled')?.category).toBe('custom');
    expect(loaded.findMarker('@@RESTART@@')?.pattern).toBe('@@RESTART@@');
    expect((await loadDetector(DEFAULTS)).classifyError(CUDA_OOM)?.rule).toBe('torch-cuda-oom');
  });

  it('are offered to testOutput as well', () => {
    const config = configWith({}, { failurePatterns: ['stalled'] });
    expect(testOutput('Trainer stalled', config, engine)?.category).toBe('custom');
  });
});

describe('markers', () => {
  const detector = createDetector(
    configWith({}, { markerPatterns: ['^@@RESTART@@$', '/please restart the runtime/i'] }),
    engine,
  );

  it('match any line of new output and name the pattern', () => {
    expect(detector.hasMarkers).toBe(true);
    expect(detector.findMarker('epoch 3 done\n@@RESTART@@\n')).toEqual({
      pattern: '^@@RESTART@@$',
      line: '@@RESTART@@',
    });
    expect(detector.findMarker('Please RESTART the runtime now')?.pattern).toBe('/please restart the runtime/i');
  });

  it('treat \\r and \\r\\n as line breaks', () => {
    expect(detector.findMarker('10%|#   |\r@@RESTART@@\r\n50%|#####|')?.line).toBe('@@RESTART@@');
  });

  it('find nothing in ordinary output', () => {
    expect(detector.findMarker('epoch 3 done\nloss 0.12\n')).toBeNull();
    expect(detector.findMarker('')).toBeNull();
  });

  it('are absent when none are configured', () => {
    const none = createDetector(DEFAULTS);
    expect(none.hasMarkers).toBe(false);
    expect(none.findMarker('@@RESTART@@')).toBeNull();
  });
});

describe('bounded work', () => {
  const TEN_MB = 10 * 1024 * 1024;
  const filler = (size: number): string => 'loss 0.1234 step 1000 memory 11.2 GiB\n'.repeat(Math.ceil(size / 38));

  it('classify a 10 MB output by its last 64 KiB', () => {
    expect(createDetector(DEFAULTS).classifyError(filler(TEN_MB) + CUDA_OOM)?.rule).toBe('torch-cuda-oom');
    // An OOM followed by more than 64 KiB of output is outside the window.
    expect(createDetector(DEFAULTS).classifyError(`${CUDA_OOM}\n${filler(MAX_TEXT_CHARS + 100)}`)).toBeNull();
  });

  it('do not match the line that the 64 KiB cut went through', () => {
    // Cut just before "CUDA out of memory...", this recovered-OOM warning would read as a bare OOM message.
    const warning = '| WARNING: ran out of memory with exception: ';
    const message = 'CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 3.95 GiB total capacity)';
    const rest = `\n${'step ok\n'.repeat(MAX_TEXT_CHARS / 8)}`;
    const text = warning + message + rest.slice(0, MAX_TEXT_CHARS - message.length);
    expect(text.slice(-MAX_TEXT_CHARS).startsWith('CUDA out of memory')).toBe(true);
    expect(createDetector(DEFAULTS).classifyError(text)).toBeNull();
  });

  it('give user patterns only the newest 2,000 lines', () => {
    const detector = createDetector(
      configWith({}, { failurePatterns: ['STALLED'], markerPatterns: ['@@RESTART@@'] }),
      engine,
    );
    const old = `STALLED\n@@RESTART@@\n${'ok\n'.repeat(MAX_USER_LINES)}`;
    expect(detector.classifyError(old)).toBeNull();
    expect(detector.findMarker(old)).toBeNull();
    expect(detector.findMarker(`@@RESTART@@\n${'ok\n'.repeat(MAX_USER_LINES - 2)}`)?.line).toBe('@@RESTART@@');
  });

  it(`give user patterns only the first ${MAX_USER_LINE_CHARS} characters of a line`, () => {
    const detector = createDetector(configWith({}, { markerPatterns: ['@@RESTART@@'] }), engine);
    expect(detector.findMarker(`${'x'.repeat(MAX_USER_LINE_CHARS)}@@RESTART@@`)).toBeNull();
    expect(detector.findMarker(`${'x'.repeat(MAX_USER_LINE_CHARS - 11)}@@RESTART@@`)?.pattern).toBe('@@RESTART@@');
  });

  it('return from a 10 MB single line with a slow-ish user pattern', () => {
    const detector = createDetector(
      configWith({}, { failurePatterns: ['(?:a|b)*c$'], markerPatterns: ['a.*b.*c.*d'] }),
      engine,
    );
    const huge = 'ab'.repeat(TEN_MB / 2);
    expect(detector.classifyError(huge)).toBeNull();
    expect(detector.findMarker(huge)).toBeNull();
  });
});
