/**
 * Builds the CLI into one file, dist/peloton.mjs, that plain Node runs: no
 * TypeScript loader at run time. The workspace packages it uses
 * (@peloton/api's schemas, config and transformer; the engine's vocabulary)
 * ship TypeScript sources, so they are bundled in; every other package stays
 * an import resolved from node_modules, as declared in package.json.
 *
 * Run by `npm run build -w packages/cli` and by the root postinstall, so a
 * checkout is runnable after `npm ci` (offline: esbuild is a local binary).
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Bare imports other than the workspace's own stay imports. */
const externalNpmPackages = {
  name: "external-npm-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@peloton/") ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  entryPoints: [resolve(root, "src/main.ts")],
  outfile: resolve(root, "dist/peloton.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
  plugins: [externalNpmPackages],
});
