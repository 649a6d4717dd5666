/**
 * A message's placeholders filled as Chrome's getMessage does: `$1`…`$9` are the substitutions, `$$` a dollar sign.
 * No browser API here, so that tests translate with it too.
 */
export function fillMessage(message: string, substitutions: readonly string[]): string {
  return message.replace(/\$(\$|[1-9])/g, (_, which: string) =>
    which === '$' ? '$' : (substitutions[Number(which) - 1] ?? ''),
  );
}
