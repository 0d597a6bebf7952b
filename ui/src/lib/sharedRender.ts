// One server render shared by many pages. The build renders an island once per page; an island
// whose HTML differs between pages only in strings it prints verbatim (the TopBar: its language
// links) can say so, and the renderer then renders it once per group and fills those strings in.
// Each group's first page is also rendered in full and compared, so a wrong declaration costs
// speed, never correctness (ssr.tsx).

export interface SharedRender<P> {
  /** Everything besides the verbatim strings that the island's HTML depends on. */
  group(props: P): string;
  /** The strings the island prints verbatim (as text or attribute values). */
  slots(props: P): string[];
  /** The props with those strings replaced by `values`, in the order of `slots`. */
  withSlots(props: P, values: string[]): P;
}

/** An island component that may carry its `SharedRender` as a static property. */
export type MaybeShared = { sharedRender?: SharedRender<Record<string, unknown>> };

// Private-use characters: React escapes neither, and page props never contain them.
const token = (n: number) => `\uE000${n}\uE001`;
const TOKEN = /\uE000(\d+)\uE001/g;

/** The placeholders to render a group's template with. */
export function slotTokens(count: number): string[] {
  return Array.from({ length: count }, (_, n) => token(n));
}

// What React's server renderer writes for these characters in text and attribute values.
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A template's HTML with each placeholder replaced by its escaped value. */
export function fillSlots(template: string, values: string[]): string {
  return template.replace(TOKEN, (_, n: string) => escapeHtml(values[Number(n)] ?? ''));
}
