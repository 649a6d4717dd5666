// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, snippet, tick } from '../../test/support/colab-dom';
import { frameEnding, observeOutputFrame } from './output-frame-reader';

let lifetime = new AbortController();

afterEach(() => {
  lifetime.abort();
  lifetime = new AbortController();
  document.body.innerHTML = '';
});

function watch(wantStreamText = false) {
  const events: string[] = [];
  observeOutputFrame(
    document,
    (kind, el) => events.push(`${kind} ${el.className}`),
    wantStreamText ? (text) => events.push(`text ${JSON.stringify(text)}`) : null,
    lifetime.signal,
  );
  return events;
}

/** Sample A of the capture: one #output-area with a stream and an execute_result. */
const sampleA = () => snippet('outputframe-body-samples.html').split('<!--\n  Sample B')[0]!;

describe('observeOutputFrame', () => {
  it('reports the outputs already in the frame (the frame only ever holds its cell output)', () => {
    mount(sampleA());
    expect(watch()).toEqual(['stream stream output-id-1', 'other execute_result output-id-2']);
  });

  it('reports outputs as they are rendered, including a traceback', async () => {
    const [area] = mount(
      '<div id="output-area"><span id="output-header"> </span><div id="output-body"></div><span ' +
        'id="output-footer"></span></div>',
    );
    const events = watch();
    const body = area!.querySelector('#output-body')!;
    mount(
      '<div class="stream output-id-1"><div class="output_subarea output_text output_stream ' +
        'output_stderr"><pre>warning</pre></div></div>',
      body,
    );
    mount(
      '<div class="error output-id-2"><div class="output_subarea output_text output_error"><pre><span ' +
        'class="ansi-red-fg">OutOfMemoryError</span>: CUDA out of memory.</pre></div></div>',
      body,
    );
    mount(
      '<div class="display_data output-id-3"><div class="output_subarea output_html rendered_html"><p ' +
        'class="error">user html</p></div></div>',
      body,
    );
    await tick();
    expect(events).toEqual(['stream stream output-id-1', 'error error output-id-2', 'other display_data output-id-3']);
  });

  it("never reads the rest of the frame's body: HTML the notebook displays there can carry any class", async () => {
    mount(
      '<div class="error">CUDA out of memory (the notebook\'s own HTML, at load)</div><div id="output-area"><div ' +
        'id="output-body"></div></div>',
    );
    const events = watch();
    mount('<div class="error output-error">OutOfMemoryError: CUDA out of memory. (added by a script)</div>');
    mount('<pre class="traceback">Traceback: OutOfMemoryError</pre>', document.querySelector('#output-area')!);
    await tick();
    expect(events).toEqual([]);
  });

  it("never reports what a display_data holds: a copy of Colab's error markup with its own #output-body", async () => {
    const [area] = mount('<div id="output-area"><div id="output-body"></div></div>');
    const events = watch();
    mount(
      '<div class="display_data output-id-1"><div class="output_subarea output_html rendered_html"><div ' +
        'id="output-area"><div id="output-body"><div class="error output-id-1"><div class="output_subarea ' +
        'output_error"><pre>OutOfMemoryError: CUDA out of memory.</pre></div></div></div></div></div></div>',
      area!.querySelector('#output-body')!,
    );
    await tick();
    // And an error output added later to the copy, by the notebook's script.
    mount('<div class="error output-id-2"><pre>MemoryError</pre></div>', document.querySelectorAll('#output-body')[1]!);
    await tick();
    expect(events).toEqual(['other display_data output-id-1']);
  });

  it("reads only the document's first #output-body: one the notebook's script puts after it is its own", async () => {
    mount('<div id="output-area"><div id="output-body"></div></div>');
    const events = watch();
    mount('<div id="output-body"><div class="error output-id-1"><pre>OutOfMemoryError</pre></div></div>');
    await tick();
    expect(events).toEqual([]);
  });

  it('reports text appended to a stream only when wanted', async () => {
    mount(sampleA());
    const events = watch(true);
    const pre = document.querySelector('.stream pre')!;
    pre.append('Killed\n');
    await tick();
    (pre.lastChild as Text).appendData('more\n');
    await tick();
    expect(events.slice(2)).toEqual(['text "Killed\\n"', 'text "more\\n"']);
  });

  it('starts before the output area exists (document_start)', async () => {
    const events = watch();
    mount(sampleA());
    await tick();
    expect(events).toHaveLength(2);
  });
});

describe('frameEnding', () => {
  it("reads the end of the frame's stream outputs, stdout and stderr, and nothing else", () => {
    mount(
      '<div class="stream">Killed (the notebook\'s own HTML)</div><div id="output-area"><div id="output-body">' +
        '<div class="stream output-id-1"><div class="output_subarea output_text output_stream"><pre>epoch 1\n</pre>' +
        '</div></div><div class="display_data output-id-2"><div class="output_subarea output_html"><div ' +
        'class="stream">Killed (displayed HTML)</div></div></div><div class="stream output-id-3"><div ' +
        'class="output_subarea output_text output_stream output_stderr"><pre>/bin/bash: line 1:  2292 Killed' +
        '                  python3 train.py\n</pre></div></div><div class="error output-id-4"><pre>Traceback</pre>' +
        '</div></div></div>',
    );
    const ending = frameEnding(document);
    expect(ending).toEqual({
      text: 'epoch 1\n\n/bin/bash: line 1:  2292 Killed                  python3 train.py\n',
      error: true,
      // Its outputs' count and Colab's numbers, and the last one: what orders them against the page's.
      count: 4,
      ids: [1, 2, 3, 4],
      last: document.querySelector('.error.output-id-4'),
    });
  });

  it('says whether the last output is an error output: another after it means the run went on', () => {
    const [body] = mount(
      '<div id="output-body"><div class="error output-id-1"><pre>OutOfMemoryError (showtraceback)</pre></div>' +
        '<div class="stream output-id-2"><pre>retrying with batch_size=32\n</pre></div></div>',
    );
    expect(frameEnding(document)).toMatchObject({ text: 'retrying with batch_size=32\n', error: false, count: 2 });
    mount('<div class="error output-id-3"><pre>KeyboardInterrupt</pre></div>', body);
    expect(frameEnding(document).error).toBe(true);
    // A copy of an error output inside a display_data is that display_data's.
    mount('<div class="display_data output-id-4"><div class="error">MemoryError</div></div>', body);
    expect(frameEnding(document).error).toBe(false);
  });

  it('is empty in a frame without #output-body', () => {
    mount('<div class="stream output-id-1"><pre>Killed</pre></div>');
    expect(frameEnding(document)).toEqual({ text: '', error: false, count: 0, ids: [], last: undefined });
  });
});

describe('observeOutputFrame: stream text, exactly', () => {
  const body = () => document.querySelector('#output-body')!;

  it('without a stream text listener, text appended beside a new output loses nothing', async () => {
    mount(sampleA());
    const events = watch(false);
    document.querySelector('.stream pre')!.append('Killed\n');
    mount('<div class="error output-id-3"><pre>MemoryError</pre></div>', body());
    await tick();
    expect(events.slice(2)).toEqual(['error error output-id-3']);
  });

  it("reads a new output's own text as the output, not as text appended to it", async () => {
    mount(sampleA());
    const events = watch(true);
    const [output] = mount('<div class="stream output-id-3"><pre></pre></div>', body());
    output!.querySelector('pre')!.append('epoch 1\n');
    await tick();
    expect(events.slice(2)).toEqual(['stream stream output-id-3']);
  });

  it('reads no text appended to an error output as stream text, and no empty text', async () => {
    mount(sampleA());
    mount('<div class="error output-id-3"><pre>Traceback</pre></div>', body());
    const events = watch(true);
    document.querySelector('.error pre')!.append('MemoryError\n');
    document.querySelector('.stream pre')!.append(document.createComment('?lit$1$'));
    await tick();
    expect(events.slice(3)).toEqual([]);
  });

  it('reads text arriving as a new block inside a stream output', async () => {
    mount(sampleA());
    const events = watch(true);
    mount('<div class="output_subarea"><pre>Killed</pre></div>', document.querySelector('.stream')!);
    await tick();
    expect(events.slice(2)).toEqual(['text "Killed"']);
  });

  it('stops when its lifetime ends', async () => {
    mount(sampleA());
    const events = watch(true);
    lifetime.abort();
    mount('<div class="error output-id-3"><pre>MemoryError</pre></div>', body());
    document.querySelector('.stream pre')!.append('Killed\n');
    await tick();
    expect(events.slice(2)).toEqual([]);
  });
});
