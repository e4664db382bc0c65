/** A text wrapped in an SGR escape (bold, dim, a colour) when `on`, else the text as it is. */
export const ansi =
  (code: string, on: boolean) =>
  (s: string): string =>
    on ? `\u001b[${code}m${s}\u001b[0m` : s;

/** A terminal hyperlink (OSC 8): terminals that know it make `text` clickable, the others show `text` alone. */
export const hyperlink = (url: string, text: string): string => `\u001b]8;;${url}\u001b\\${text}\u001b]8;;\u001b\\`;
