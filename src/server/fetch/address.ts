import ipaddr from 'ipaddr.js';

/**
 * Why an address may not be fetched, or undefined when it is a public unicast address.
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries, so the
 * mapping cannot smuggle a loopback target past the check.
 */
export function addressProblem(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  // ipaddr.js names every special-purpose block (loopback, private, linkLocal, uniqueLocal,
  // carrierGradeNat, reserved, multicast, unspecified, 6to4 ...); only `unicast` is public.
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}
