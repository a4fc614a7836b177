/** Whether credentials sent to this address cross a network unencrypted: http to a host that is not this machine. */
export function sentInClear(baseUrl: string): boolean {
  let u: URL;
  try {
    u = new URL(baseUrl);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:') return false;
  // The URL parser writes IPv4 addresses in full (127.1 is 127.0.0.1) and IPv6 ones in brackets, shortest form.
  const host = u.hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  const loopback =
    host === 'localhost' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '::1' ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
  return !loopback;
}
