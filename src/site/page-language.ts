/**
 * Colab's interface language as its page says it (REFERENCE.md §12.3): `?hl=` chooses it (colabtools#25), else the
 * page's `<html lang>`; English when neither names a language. A canonical language tag ("pt-BR", "ja").
 * Self-contained (it names nothing outside its body): the popup runs it in the Colab tab with `scripting`, without
 * loading the guard there.
 */
export function colabLanguage(doc: Document = document): string {
  // `pt_BR`, with the underscore of other locale systems, reads as pt-BR.
  const canonical = (tag: string | null) => {
    try {
      return tag ? (Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'))[0] ?? null) : null;
    } catch {
      return null;
    }
  };
  return canonical(new URL(doc.location.href).searchParams.get('hl')) ?? canonical(doc.documentElement.lang) ?? 'en';
}

/** The language without its region or script: what Colab's texts are looked up by ("pt" for "pt-BR"). */
export function baseLanguage(tag: string): string {
  return (tag.split('-')[0] ?? tag).toLowerCase();
}
