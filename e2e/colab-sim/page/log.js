// The action log (`window.__colabSim.log`): every action taken on the page, in order, with a timestamp.
// Tests read it through `simLog(page)`; entry types are documented in ../log.ts.

export const entries = [];

export function record(type, fields = {}) {
  const entry = { t: performance.now(), type, ...fields };
  entries.push(entry);
  return entry;
}
