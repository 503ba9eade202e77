import { describe, expect, it } from "vitest";
import { addressBudgetKey } from "./client-address.server.ts";

/** Each address (a key of `keys`) has the budget key given. */
function expectKeys(keys: Record<string, string>) {
  for (const [address, key] of Object.entries(keys)) expect(addressBudgetKey(address), address).toBe(key);
}

describe("the budget key of a client address", () => {
  it("counts an IPv6 address by its /64, however it is written", () => {
    const one64 = [
      "2001:db8:a:b::1",
      "2001:DB8:A:B::FFFF",
      "2001:0db8:000a:000b:0000:0000:0000:0002",
      "2001:db8:a:b:1:2:3:4",
      "2001:db8:a:b:ffff:ffff:ffff:ffff",
      "2001:db8:a:b::1.2.3.4",
      "[2001:db8:a:b::5]",
      "[2001:db8:a:b::6]:443",
      " 2001:db8:a:b::7 ",
    ];
    for (const address of one64) expect(addressBudgetKey(address), address).toBe("2001:db8:a:b::/64");
    expectKeys({
      "2001:db8:a:c::1": "2001:db8:a:c::/64",
      "2001:db8::1": "2001:db8:0:0::/64",
      "::1": "0:0:0:0::/64",
      "::": "0:0:0:0::/64",
      "fe80::1%eth0": "fe80:0:0:0::/64",
      "fe80::2%25en0": "fe80:0:0:0::/64",
      "1::": "1:0:0:0::/64",
    });
  });

  it("counts an IPv4-mapped address as the IPv4 address, and an IPv4 address as itself", () => {
    expectKeys({
      "::ffff:192.0.2.1": "192.0.2.1",
      "::FFFF:c000:0201": "192.0.2.1",
      "0:0:0:0:0:ffff:192.0.2.1": "192.0.2.1",
      "192.0.2.1": "192.0.2.1",
      "127.0.0.1": "127.0.0.1",
      // Not mapped: NAT64 and the deprecated IPv4-compatible form are IPv6 prefixes like any other.
      "64:ff9b::192.0.2.1": "64:ff9b:0:0::/64",
    });
  });

  it("keeps anything that is not an address as it is", () => {
    for (const text of ["unknown", "", "2001:db8::g", "1.2.3.256", "example.com"])
      expect(addressBudgetKey(text)).toBe(text);
  });
});
