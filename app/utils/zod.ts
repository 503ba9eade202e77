/**
 * zod, as every schema of the app imports it. In the browser its JIT is off: the shop's CSP allows
 * no eval, and zod's probe for it (`new Function("")`) would be reported as a CSP violation on every
 * page that parses a form. The server keeps the faster JIT parse.
 */
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
