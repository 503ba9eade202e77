import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
const [pdfPath, outPrefix] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
const pdfjs = readFileSync("node_modules/unpdf/dist/pdfjs.mjs");
await page.route("http://local/**", (route) => {
  const url = route.request().url();
  if (url.endsWith("pdfjs.mjs")) return route.fulfill({ body: pdfjs, contentType: "text/javascript" });
  if (url.endsWith("doc.pdf")) return route.fulfill({ body: readFileSync(pdfPath), contentType: "application/pdf" });
  return route.fulfill({ contentType: "text/html", body: `<body style="margin:0;background:#888"><script type="module">
    import { getDocument } from "/pdfjs.mjs";
    const pdf = await getDocument({ url: "/doc.pdf" }).promise;
    for (let n = 1; n <= pdf.numPages; n++) {
      const p = await pdf.getPage(n); const v = p.getViewport({ scale: 1.4 });
      const c = document.createElement("canvas"); c.width = v.width; c.height = v.height; c.style.display="block"; c.style.margin="8px";
      document.body.append(c); await p.render({ canvasContext: c.getContext("2d"), viewport: v }).promise;
    }
    document.title = "done " + pdf.numPages;
  </script></body>` });
});
page.on("console", (m) => console.log("console:", m.text()));
page.on("pageerror", (e) => console.log("error:", e.message));
await page.goto("http://local/index.html");
await page.waitForFunction(() => document.title.startsWith("done"), null, { timeout: 60000 });
console.log(await page.title());
await page.screenshot({ path: `${outPrefix}.png`, fullPage: true });
await browser.close();
