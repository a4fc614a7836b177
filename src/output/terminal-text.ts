/**
 * Text from the service shown to a person must not drive the terminal: a workspace titled
 * `Evil\u001b]0;pwned\u0007\u001b[2J` would set the window title and clear the screen. Control
 * characters (C0 but tab and newline, DEL, C1) are shown escaped as `\xHH`, so an ESC sequence
 * becomes inert visible text and the operator sees that the value carries one. Carriage return
 * is escaped too: it would let a value overwrite what is already on the line.
 *
 * Machine output (--json, --ndjson, raw `edp api` bodies) never passes through here.
 */

// eslint-disable-next-line no-control-regex -- control characters are what is escaped
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * Select Graphic Rendition (colour, bold) and nothing else: the only sequences this tool writes
 * itself, kept in composed messages when colour is on.
 */
// eslint-disable-next-line no-control-regex -- escape codes and control characters are what is kept or escaped
const STYLE_OR_CONTROL = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const escaped = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Every control character but tab and newline, escaped. For values before they are styled. */
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
