/** A surviving mutant justified as equivalent: `code` is a piece of the source the mutant replaced. */
export interface EquivalentMutant {
  file: string;
  mutator: string;
  code: string;
  replacement?: string;
  why: string;
}
