/**
 * One regular expression written as consecutive parts, so that a long pattern fits our 120-character lines while
 * each part stays a checked regex literal. The parts' sources are joined as they are (an alternation can continue
 * in the next part with a leading `|`); the flags are the first part's.
 */
export function joinRegex(...parts: [RegExp, ...RegExp[]]): RegExp {
  return new RegExp(parts.map((part) => part.source).join(''), parts[0].flags);
}
