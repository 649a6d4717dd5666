/**
 * A surviving mutant nothing can observe (an equivalent mutant), pinned exactly as Stryker reports it: its file, the
 * line it starts on, its mutator and its replacement, and its column where one line has two such mutants.
 */
export interface EquivalentMutant {
  file: string;
  line: number;
  column?: number;
  mutator: string;
  replacement: string;
  why: string;
}
