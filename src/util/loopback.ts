/**
 * Whether a URL's host is this machine by its name alone: localhost, 127.0.0.0/8 or ::1 (and
 * ::ffff:127.x.x.x). `hostname` is as the URL parser gives it: IPv4 addresses written in full
 * (127.1 is 127.0.0.1), IPv6 ones in brackets in their shortest form. A name that resolves to
 * a loopback address is not known to be one until resolved, and is not counted.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return (
    host === 'localhost' ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '::1' ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host)
  );
}
