// Bundles every pages/<name>.js (or .jsx) into dist/<name>.js (+ dist/<name>.css when it imports
// CSS), so each gallery page loads the real library exactly as a site's build would ship it.
// Assets a library loads by URL at run time (pdf.js's worker) are copied beside the bundles.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";

const pages = readdirSync("pages").filter((f) => /\.jsx?$/.test(f)).map((f) => `pages/${f}`);
mkdirSync("dist", { recursive: true });
await build({
  entryPoints: pages,
  outdir: "dist",
  bundle: true,
  minify: true,
  format: "esm",
  target: "chrome120",
  logLevel: "warning",
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  loader: { ".png": "file", ".svg": "file", ".gif": "file", ".woff": "file", ".woff2": "file",
            ".ttf": "file", ".eot": "file" },
});
const copies = [["node_modules/pdfjs-dist/build/pdf.worker.min.mjs", "dist/pdf.worker.min.mjs"]];
for (const [from, to] of copies) copyFileSync(from, to);
