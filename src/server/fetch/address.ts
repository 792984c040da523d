import ipaddr from 'ipaddr.js';

/**
 * Why an address may not be fetched, or undefined when it is a public unicast address.
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries, so the
 * mapping cannot smuggle a loopback target past the check; IPv4-compatible IPv6 is refused.
 */
export function addressProblem(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  // ipaddr.js names every special-purpose block (loopback, private, linkLocal, uniqueLocal,
  // carrierGradeNat, reserved, multicast, unspecified, 6to4 ...); only `unicast` is public.
  if (range !== 'unicast') return `${address} is a ${range} address`;
  // IPv4-compatible IPv6 (`::127.0.0.1`, ::/96, deprecated by RFC 4291) reaches the IPv4 address
  // it carries on some stacks; ipaddr.js calls it unicast, so it is refused here, whatever it carries.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) {
    return `${address} is an IPv4-compatible IPv6 address`;
  }
  return undefined;
}
