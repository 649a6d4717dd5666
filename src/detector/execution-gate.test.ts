import { describe, expect, it } from 'vitest';
import { createExecutionGate, LATE_OUTPUT_MS } from './execution-gate';

describe('execution gate', () => {
  it('accepts a failure of a cell seen running, while it runs and shortly after', () => {
    const gate = createExecutionGate();
    gate.cellState('a', 'running', 0);
    expect(gate.accepts('a', 100)).toBe(true);
    gate.cellState('a', 'error', 200);
    expect(gate.accepts('a', 200 + LATE_OUTPUT_MS)).toBe(true);
    expect(gate.accepts('a', 201 + LATE_OUTPUT_MS)).toBe(false);
  });

  it('never accepts a cell not seen running here (outputs at load, lazily rendered saved outputs)', () => {
    const gate = createExecutionGate();
    expect(gate.accepts('a', 0)).toBe(false);
    gate.cellState('a', 'error', 10);
    gate.cellState('a', 'idle', 20);
    expect(gate.accepts('a', 30)).toBe(false);
    expect(gate.isLive('a', 30)).toBe(false);
  });

  it('does not arm a queued cell until it actually runs', () => {
    const gate = createExecutionGate();
    gate.cellState('a', 'pending', 0);
    expect(gate.accepts('a', 1)).toBe(false);
  });

  it('accepts one failure per execution, and again after the cell runs again', () => {
    const gate = createExecutionGate();
    gate.cellState('a', 'running', 0);
    gate.reported('a');
    expect(gate.accepts('a', 1)).toBe(false);
    expect(gate.isLive('a', 1)).toBe(true);
    gate.cellState('a', 'error', 2);
    gate.cellState('a', 'running', 3);
    expect(gate.accepts('a', 4)).toBe(true);
  });

  it('a running state seen twice does not re-arm a reported execution', () => {
    const gate = createExecutionGate();
    gate.cellState('a', 'running', 0);
    gate.reported('a');
    gate.cellState('a', 'running', 1);
    expect(gate.accepts('a', 2)).toBe(false);
  });

  it('forgets every execution on reset: old outputs after a restart are history until the cell runs again', () => {
    const gate = createExecutionGate();
    gate.cellState('a', 'running', 0);
    gate.cellState('b', 'running', 0);
    gate.reset();
    expect(gate.accepts('a', 1)).toBe(false);
    expect(gate.accepts('b', 1)).toBe(false);
    gate.cellState('b', 'running', 2);
    expect(gate.accepts('b', 3)).toBe(true);
    expect(gate.accepts('a', 3)).toBe(false);
  });

  it('keeps cells apart', () => {
    const gate = createExecutionGate();
    gate.cellState('a', 'running', 0);
    gate.reported('a');
    gate.cellState('b', 'running', 0);
    expect(gate.accepts('b', 1)).toBe(true);
  });
});
