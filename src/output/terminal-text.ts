/**
 * Text from the service shown to a person must not drive the terminal: a workspace titled
 * `Evil\u001b]0;pwned\u0007\u001b[2J` would set the window title and clear the screen. Control
 * characters (C0 but tab and newline, DEL, C1) are shown escaped as `\xHH`, so an ESC sequence
 * becomes inert visible text and the operator sees that the value carries one. Carriage return
 * is escaped too: it would let a value overwrite what is already on the line. So are the
 * bidirectional controls (embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069, the
 * marks U+200E, U+200F, U+061C), as `\uHHHH`: a title holding U+202E would show what follows it
 * right to left, so that `txt.exe` could read as `exe.txt` and a row as another.
 *
 * Machine output (--json, --ndjson, raw `edp api` bodies) never passes through here; the
 * tab-separated rows of piped output do (`| cat` still ends at a terminal).
 */

/** What is escaped: C0 but tab and newline, DEL, C1, then the bidirectional controls. */
const ESCAPED = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${ESCAPED}]`, 'g');
/**
 * Select Graphic Rendition (colour, bold) and nothing else: the only sequences this tool writes
 * itself, kept in composed messages when colour is on.
 */
const STYLE_OR_CONTROL = new RegExp(`\\u001b\\[[0-9;]*m|[${ESCAPED}]`, 'g');

const escaped = (c: string) => {
  const code = c.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
};

/** Every control character but tab and newline, and every bidirectional control, escaped. For values before they are styled. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, escaped);
}

/**
 * The same for composed text that may carry this tool's own colours: with `keepStyles`, SGR
 * sequences (`ESC [ … m`) are kept and every other control character is escaped. A colour
 * sequence from the service then survives too, but it can only colour text, never move the
 * cursor, clear the screen, set the title or write a link.
 */
export function terminalSafeStyled(text: string, keepStyles: boolean): string {
  if (!keepStyles) return terminalSafe(text);
  return text.replace(STYLE_OR_CONTROL, (m) => (m.length > 1 ? m : escaped(m)));
}
