/**
 * An address as printed: a password inside it (`https://user:secret@host`) is shown as `***`.
 * Anything that is not a URL is printed as it is. Requests use the address unchanged.
 */
export function displayUrl(url: string): string {
  if (!url.includes('@')) return url;
  try {
    const u = new URL(url);
    if (u.password === '') return url;
    u.password = '***';
    // Keep the user's own spelling (no trailing slash added to a bare origin).
    const shown = u.toString();
    return url.endsWith('/') || u.pathname !== '/' ? shown : shown.replace(/\/$/, '');
  } catch {
    return url;
  }
}
