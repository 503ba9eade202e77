import { isIPv4, isIPv6 } from "node:net";

/**
 * The key a client address is counted under by every per-address budget (record 012).
 *
 * - An IPv4 address is its own key.
 * - An IPv6 address is counted by its /64 prefix: a subscriber gets at least a /64 and chooses the
 *   last 64 bits freely (privacy addresses change them daily, and anyone can add more), so counting
 *   whole addresses would give one client 2^64 budgets. `2001:DB8::1`, `2001:db8:0:0:ffff::2` and
 *   `[2001:db8::3]` all count as `2001:db8:0:0::/64`.
 * - An IPv4-mapped address (`::ffff:192.0.2.1`, how a dual-stack socket shows an IPv4 client) is the
 *   IPv4 address; a zone id (`fe80::1%eth0`) is dropped.
 * - Anything that is not an address (`unknown`) is its own key.
 */
export function addressBudgetKey(address: string): string {
  let text = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  if (isIPv4(text)) return text;
  if (!isIPv6(text)) return address;
  const groups = ipv6Groups(text);
  const [g6 = 0, g7 = 0] = groups.slice(6);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const ipv4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  if (tail === undefined) return headGroups.map((group) => Number.parseInt(group, 16));
  const tailGroups = tail === "" ? [] : tail.split(":");
  const zeros = Array<string>(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16));
}
