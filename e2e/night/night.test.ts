import { expect, it, describe as suite } from 'vitest';
import { describe, generateNight, nightColab, Random, smallerNights } from './events';
import {
  coverage,
  FLOOR_ITEMS,
  type FloorItem,
  modelFor,
  planNights,
  playOn,
  reached,
  readyToAct,
  steer,
  steeredNight,
} from './floor';
import { NightModel } from './model';

suite('the night generator', () => {
  it('draws the same night for the same seed, another for another seed', () => {
    expect(generateNight(7, 50)).toEqual(generateNight(7, 50));
    expect(generateNight(7, 50)).not.toEqual(generateNight(8, 50));
  });

  it('draws every kind of event in a long night', () => {
    const kinds = new Set(generateNight(1, 2000).map((e) => e.kind));
    expect([...kinds].sort()).toEqual(
      [
        'asleep',
        'caught-oom',
        'dialog',
        'disconnect',
        'healthy-stretch',
        'limit',
        'old-log',
        'oom',
        'other-error',
        'other-notebook',
        'outage',
        'ram-crash',
        'reload',
        'run-ok',
        'second-tab',
        'shell-oom',
        'stop',
        'switch',
        'typing',
        'unknown-crash',
        'update',
        'worker-stop',
        'hidden',
      ].sort(),
    );
  });

  it('draws numbers in [0, 1) and ints within their bounds', () => {
    const random = new Random(3);
    for (let i = 0; i < 1000; i++) {
      const x = random.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      expect(random.int(0, 4)).toBeOneOf([0, 1, 2, 3, 4]);
    }
  });

  it('offers smaller nights: its last events alone, then halves, then single events, each one without some', () => {
    const night = generateNight(2, 4);
    const candidates = [...smallerNights(night)];
    expect(candidates.map((c) => c.length)).toEqual([1, 2, 2, 2, 3, 3, 3, 3]);
    expect(candidates[0]).toEqual(night.slice(3));
    expect(candidates[1]).toEqual(night.slice(2));
    expect(candidates[2]).toEqual(night.slice(2));
    expect(candidates[7]).toEqual(night.slice(0, 3));
  });

  it('describes an event with its parameters', () => {
    expect(describe({ kind: 'oom', preset: 'cuda-oom', place: 'frame', during: 'reload' })).toBe(
      'oom(preset=cuda-oom, place=frame, during=reload)',
    );
    expect(describe({ kind: 'reload' })).toBe('reload');
  });
});

suite("the model of README's promises", () => {
  const oom = { kind: 'oom', preset: 'cuda-oom', place: 'frame' } as const;

  it('gives 3 restarts in a crash loop, then gives up; a healthy stretch resets the loop', () => {
    const model = new NightModel();
    for (let i = 0; i < 3; i++) {
      expect(model.acts(oom)).toBe(true);
      model.apply(oom);
    }
    expect(model.expected()).toMatchObject({ loop: 3, restarts: 3, gaveUp: false });
    model.apply({ kind: 'healthy-stretch' });
    expect(model.expected().loop).toBe(0);
    for (let i = 0; i < 4; i++) model.apply({ kind: 'shell-oom' });
    expect(model.expected()).toMatchObject({ loop: 3, restarts: 6, gaveUp: true });
    expect(model.acts(oom)).toBe(false);
    model.apply({ kind: 'healthy-stretch' });
    expect(model.expected()).toMatchObject({ loop: 3, gaveUp: true });
  });

  it('runs all after a RAM crash, without a restart; never acts on other endings', () => {
    const model = new NightModel();
    model.apply({ kind: 'ram-crash' });
    for (const kind of ['unknown-crash', 'other-error', 'caught-oom', 'stop', 'old-log', 'run-ok'] as const) {
      expect(model.acts({ kind })).toBe(false);
      model.apply({ kind });
    }
    expect(model.expected()).toMatchObject({ crashRunAlls: 1, restarts: 0, loop: 1 });
  });

  it('a limit of 0 gives up at the first failure; switching on again starts fresh', () => {
    const model = new NightModel();
    model.apply({ kind: 'limit', max: 0 });
    model.apply(oom);
    expect(model.expected()).toMatchObject({ gaveUp: true, restarts: 0 });
    model.apply({ kind: 'switch', on: false });
    model.apply(oom);
    model.apply({ kind: 'switch', on: true });
    expect(model.expected()).toMatchObject({ enabled: true, gaveUp: false, loop: 0, limit: 0 });
  });

  it('switching off during a countdown cancels it; other interruptions still give one restart', () => {
    const model = new NightModel();
    model.apply({ ...oom, during: 'reload' });
    model.apply({ kind: 'limit', max: 4 });
    model.apply({ ...oom, during: 'worker-stop' });
    model.apply({ ...oom, during: 'update' });
    expect(model.acts({ ...oom, during: 'switch-off' })).toBe(false);
    model.apply({ ...oom, during: 'switch-off' });
    expect(model.expected()).toMatchObject({ enabled: false, restarts: 3, loop: 3 });
  });

  it('a switch-off meant for a countdown has one to land in, though the guard does not act on it', () => {
    // The night switches off only inside a countdown: without one, the switch-off was never played.
    const model = new NightModel();
    expect(model.countsDown({ ...oom, during: 'switch-off' })).toBe(true);
    expect(model.countsDown({ ...oom, during: 'reload' })).toBe(true);
    model.apply({ ...oom, during: 'switch-off' });
    expect(model.countsDown(oom)).toBe(false);
    expect(model.countsDown({ kind: 'run-ok' })).toBe(false);
  });

  it('at the limit an OOM meant to be switched off gives up: no countdown to cancel, the guard stays on', () => {
    const model = new NightModel();
    model.apply({ kind: 'limit', max: 1 });
    model.apply(oom);
    expect(model.countsDown({ ...oom, during: 'switch-off' })).toBe(false);
    model.apply({ ...oom, during: 'switch-off' });
    expect(model.expected()).toMatchObject({ enabled: true, gaveUp: true, giveUps: 1, restarts: 1 });
  });

  it('an OOM shown in two tabs, one of them late, is one failure: one restart', () => {
    const model = new NightModel();
    model.apply({ kind: 'second-tab', late: true });
    expect(model.expected()).toMatchObject({ restarts: 1, loop: 1 });
  });

  it('reconnects only the idle disconnect, only with the setting on, counted in the crash loop', () => {
    const off = new NightModel();
    for (const reason of ['idle', 'disallowed-code', 'zero-units'] as const) {
      expect(off.acts({ kind: 'disconnect', reason })).toBe(false);
      off.apply({ kind: 'disconnect', reason });
    }
    expect(off.expected()).toMatchObject({ reconnects: 0, loop: 0, crashRunAlls: 0 });
    const on = new NightModel({ reconnectOnDisconnect: true });
    for (const reason of ['disallowed-code', 'zero-units'] as const) {
      expect(on.acts({ kind: 'disconnect', reason })).toBe(false);
      on.apply({ kind: 'disconnect', reason });
    }
    on.apply({ kind: 'limit', max: 1 });
    expect(on.acts({ kind: 'disconnect', reason: 'idle' })).toBe(true);
    on.apply({ kind: 'disconnect', reason: 'idle' });
    expect(on.expected()).toMatchObject({ reconnects: 1, crashRunAlls: 1, restarts: 0, loop: 1 });
    on.apply({ kind: 'disconnect', reason: 'idle' });
    expect(on.expected()).toMatchObject({ reconnects: 1, gaveUp: true, giveUps: 1 });
  });

  it('asleep past the healthy window resets the loop; past 12 hours the guard has ended', () => {
    const model = new NightModel();
    model.apply(oom);
    model.apply({ kind: 'asleep', hours: 2 });
    expect(model.expected()).toMatchObject({ enabled: true, loop: 0 });
    model.apply({ kind: 'asleep', hours: 13 });
    expect(model.acts(oom)).toBe(false);
    model.apply(oom);
    expect(model.expected()).toMatchObject({ enabled: false, restarts: 1 });
    model.apply({ kind: 'switch', on: true });
    expect(model.acts(oom)).toBe(true);
  });

  it('an outage: one failing reconnect, then one that runs all; each counted; at the limit a give-up', () => {
    const off = new NightModel();
    off.apply({ kind: 'outage' });
    expect(off.expected()).toMatchObject({ loop: 0, crashRunAlls: 0, gaveUp: false });
    const on = new NightModel({ reconnectOnDisconnect: true });
    // A page that never saw a cell run is someone connecting by hand.
    expect(on.acts({ kind: 'outage' })).toBe(false);
    on.apply({ kind: 'run-ok' });
    expect(on.acts({ kind: 'outage' })).toBe(true);
    on.apply({ kind: 'outage' });
    expect(on.expected()).toMatchObject({ loop: 2, crashRunAlls: 1, reconnects: 0, gaveUp: false });
    expect(on.outageGivesUp()).toBe(true);
    on.apply({ kind: 'reload' });
    expect(on.outageGivesUp()).toBe(false);
    on.apply({ kind: 'other-error' });
    on.apply({ kind: 'disconnect', reason: 'zero-units' });
    expect(on.outageGivesUp()).toBe(true);
    // Switched off and on, the guard's watch starts afresh: no run of its own to bring back.
    on.apply({ kind: 'switch', on: false });
    on.apply({ kind: 'run-ok' });
    on.apply({ kind: 'switch', on: true });
    expect(on.acts({ kind: 'outage' })).toBe(false);
    on.apply({ kind: 'limit', max: 3 });
    on.apply({ kind: 'run-ok' });
    on.apply({ kind: 'outage' });
    expect(on.expected()).toMatchObject({ loop: 2, crashRunAlls: 2, gaveUp: false });
    expect(on.outageGivesUp()).toBe(true);
    on.apply({ kind: 'outage' });
    expect(on.expected()).toMatchObject({ loop: 3, crashRunAlls: 2, gaveUp: true, giveUps: 1 });
  });

  it('the person at the keyboard: Restart now is one restart, Not now none and no loop restart used, away acts', () => {
    const model = new NightModel({ reconnectOnDisconnect: false, askAtKeyboard: true });
    expect(model.question({ ...oom, answer: 'not-now' })).toBe('not-now');
    model.apply({ ...oom, answer: 'not-now' });
    expect(model.expected()).toMatchObject({ restarts: 0, loop: 0, leftToYou: 1, gaveUp: false });
    model.apply({ ...oom, answer: 'restart' });
    model.apply({ ...oom, answer: 'away' });
    expect(model.expected()).toMatchObject({ restarts: 2, loop: 2, leftToYou: 1 });
    // A replay file from before the question: Restart now.
    expect(model.question(oom)).toBe('restart');
  });

  it('asks only where the asking page stays to answer; never with the question off or nothing counting down', () => {
    const off = new NightModel();
    expect(off.question({ ...oom, answer: 'not-now' })).toBeNull();
    off.apply({ ...oom, answer: 'not-now' });
    expect(off.expected()).toMatchObject({ restarts: 1, leftToYou: 0 });
    const on = new NightModel({ reconnectOnDisconnect: false, askAtKeyboard: true });
    expect(on.question({ ...oom, during: 'worker-stop', answer: 'not-now' })).toBe('not-now');
    for (const during of ['reload', 'update', 'other-notebook', 'switch-off'] as const) {
      expect(on.question({ ...oom, during, answer: 'not-now' })).toBeNull();
    }
    // Another notebook opened in the asking tab: as if the tab were closed, the answer is no.
    expect(on.acts({ ...oom, during: 'other-notebook' })).toBe(false);
    on.apply({ ...oom, during: 'other-notebook', answer: 'restart' });
    expect(on.expected()).toMatchObject({ restarts: 0, loop: 0, leftToYou: 0 });
    // The page that came back has seen nothing run: an outage then is the person's to connect.
    expect(new NightModel({ reconnectOnDisconnect: true, askAtKeyboard: true }).acts({ kind: 'outage' })).toBe(false);
    const outage = new NightModel({ reconnectOnDisconnect: true, askAtKeyboard: true });
    outage.apply({ ...oom, during: 'other-notebook' });
    expect(outage.acts({ kind: 'outage' })).toBe(false);
    // Reloaded, the page that asked is gone: nobody has touched the new one, so the countdown acts.
    on.apply({ ...oom, during: 'reload', answer: 'not-now' });
    expect(on.expected()).toMatchObject({ restarts: 1, leftToYou: 0 });
    on.apply({ kind: 'limit', max: 1 });
    expect(on.question({ ...oom, answer: 'not-now' })).toBeNull();
    on.apply({ ...oom, answer: 'not-now' });
    expect(on.expected()).toMatchObject({ gaveUp: true, giveUps: 1, leftToYou: 0 });
  });

  it("asleep in a countdown: a new countdown, one restart; a disconnect that is the person's cancels it", () => {
    const model = new NightModel();
    expect(model.acts({ ...oom, during: 'asleep' })).toBe(true);
    model.apply({ ...oom, during: 'asleep' });
    expect(model.expected()).toMatchObject({ restarts: 1, loop: 1 });
    expect(model.countsDown({ ...oom, during: 'disconnect' })).toBe(true);
    expect(model.acts({ ...oom, during: 'disconnect' })).toBe(false);
    model.apply({ ...oom, during: 'disconnect' });
    expect(model.expected()).toMatchObject({ restarts: 1, loop: 1, enabled: true, gaveUp: false });
  });

  it('a failure in a hidden tab is restarted unasked; a hidden run that ends well is nothing', () => {
    const model = new NightModel({ reconnectOnDisconnect: false, askAtKeyboard: true });
    expect(model.question({ kind: 'hidden', fails: true })).toBeNull();
    expect(model.acts({ kind: 'hidden', fails: false })).toBe(false);
    model.apply({ kind: 'hidden', fails: false });
    model.apply({ kind: 'hidden', fails: true });
    expect(model.expected()).toMatchObject({ restarts: 1, loop: 1 });
  });
});

suite("the night's Colab and person, drawn from the seed", () => {
  it('keeps the Colab a seed had before the question and alerts were drawn', () => {
    // Seed 4 (CI's short night): an mwc dialog, late frames, the Reconnect setting on.
    expect(nightColab(4)).toMatchObject({ dialog: 'mwc', renderDelayMs: 120, reconnectOnDisconnect: true });
  });

  it('draws the question on and off, alerts set or not, and every receiver behaviour across seeds', () => {
    const colabs = Array.from({ length: 60 }, (_, seed) => nightColab(seed));
    expect(new Set(colabs.map((c) => c.askAtKeyboard))).toEqual(new Set([true, false]));
    expect(colabs.some((c) => c.alerts === null)).toBe(true);
    expect(new Set(colabs.map((c) => c.alerts?.receiver).filter(Boolean))).toEqual(new Set(['ok', 'fails', 'hangs']));
    expect(colabs.some((c) => c.alerts?.events['gave-up'] === false)).toBe(true);
  });

  it('draws every answer to the question in a long night', () => {
    const answers = new Set(generateNight(1, 2000).flatMap((e) => (e.kind === 'oom' ? [e.answer] : [])));
    expect(answers).toEqual(new Set(['restart', 'not-now', 'away']));
  });
});

suite('the floor every run plays with the guard on', () => {
  it('plans nights that play every item of the floor, whatever the seed', () => {
    for (let seed = 0; seed < 300; seed++) {
      const nights = planNights([seed * 7919 + 11], 40);
      expect(
        FLOOR_ITEMS.filter((item) => !coverage(nights).has(item)),
        `seed ${seed * 7919 + 11}`,
      ).toEqual([]);
      expect(nights.length).toBeLessThanOrEqual(3);
    }
  });

  it('keeps the seed its night and Colab, and adds a night of another seed only for a Colab it lacks', () => {
    const nights = planNights([4], 40);
    expect(nights[0]).toMatchObject({ seed: 4, colab: nightColab(4) });
    expect(nights[0]!.events.slice(0, 40)).toEqual(generateNight(4, 40));
    // Seed 4's Colab has an mwc dialog: the md one must come from another night.
    expect(nights.slice(1).some((n) => n.colab.dialog === 'md')).toBe(true);
    expect(planNights([4], 40)).toEqual(nights);
  });

  it('steers a night to what it misses: the guard brought back on with room to act, then the event', () => {
    const colab = { ...nightColab(4), dialog: 'md', reconnectOnDisconnect: true, askAtKeyboard: true } as const;
    const model = modelFor(colab);
    model.apply({ kind: 'limit', max: 0 });
    model.apply({ kind: 'oom', preset: 'cuda-oom', place: 'frame', answer: 'restart' });
    expect(model.expected()).toMatchObject({ gaveUp: true });
    for (const item of FLOOR_ITEMS.filter((i) => i !== 'restart-mwc')) {
      const events = steer(item, colab, model)!;
      const covered = new Set<FloorItem>();
      playOn(model.clone(), colab, events, covered);
      expect(covered.has(item), item).toBe(true);
    }
    expect(steer('restart-mwc', colab, model)).toBeNull();
    expect(steer('outage', { ...colab, reconnectOnDisconnect: false }, model)).toBeNull();
  });

  it('counts what the guard met while on only: an OOM in a reload with the guard off is no item', () => {
    const colab = { ...nightColab(4), dialog: 'mwc' } as const;
    const model = modelFor(colab);
    const reloaded = { kind: 'oom', preset: 'cuda-oom', place: 'frame', during: 'reload' } as const;
    expect(reached(reloaded, colab, model)).toEqual(['restart-mwc', 'oom-reload']);
    model.apply({ kind: 'switch', on: false });
    expect(reached(reloaded, colab, model)).toEqual([]);
    expect(reached({ kind: 'switch', on: true }, colab, model)).toEqual(['switch-on']);
    expect(readyToAct(model)).toEqual([{ kind: 'switch', on: true }]);
  });

  it('a night steered at the end plays what the run missed that its Colab can', () => {
    const night = steeredNight(['restart-md', 'answer-not-now', 'oom-update'], 100);
    expect(night.colab).toMatchObject({ dialog: 'md', askAtKeyboard: true });
    expect(night.steered).toBe(night.events.length);
    const covered = coverage([night]);
    expect(['restart-md', 'answer-not-now', 'oom-update'].every((item) => covered.has(item as FloorItem))).toBe(true);
  });
});
