/**
 * The WebAssembly build of Prisma's schema engine, loaded by hand
 * (shared/design/prisma-offline.md), and the process-wide state that comes
 * with it: one wasm instance, its panic registry, and its timers.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export type Glue = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");

/** A failure reported by the engine, in words. */
export class SchemaEngineError extends Error {
  override readonly name = "SchemaEngineError";
}

/**
 * The few WebAssembly APIs used here. The project's `lib` (ES2023, no DOM)
 * does not declare the global, and declaring it globally would clash in
 * packages that do include the DOM library.
 */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (
    module: object,
    imports: Record<string, Record<string, unknown>>,
  ) => { exports: Record<string, unknown> };
  RuntimeError: new (message?: string) => Error;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Where the wasm glue reports a Rust panic's message, just before the call traps. */
interface PanicRegistry {
  message: string;
  set_message(message: string): void;
}

declare global {
  var PRISMA_WASM_PANIC_REGISTRY: PanicRegistry | undefined;
}

/**
 * The engine's messages end with a Rust span trace ("   0: schema_engine_wasm::
 * ...  at engine.rs:242") that says nothing to a user of the CLI.
 */
function withoutSpanTrace(message: string): string {
  const lines = message.split("\n");
  const traceStart = lines.findIndex((line) => /^\s*\d+: \S+::/.test(line));
  return (traceStart === -1 ? lines : lines.slice(0, traceStart)).join("\n").trim();
}

// ─── panics ──────────────────────────────────────────────────────────────────

/** Set once the engine has panicked: no call is safe afterwards (engine.rs says so). */
let panicked: string | undefined;
const inFlight = new Set<(err: Error) => void>();

function panicError(): SchemaEngineError {
  return new SchemaEngineError(`the schema engine panicked: ${panicked}`);
}

/**
 * A panic inside an async step traps in whatever callback was running, so
 * the engine call's promise would never settle. The registry therefore fails
 * every call in flight itself.
 */
const registry: PanicRegistry = {
  message: "",
  set_message(message) {
    registry.message = message;
    panicked = withoutSpanTrace(message);
    for (const reject of inFlight) reject(panicError());
    inFlight.clear();
  },
};

/** The panic message, once the engine has panicked (the CLI reports it). */
export function schemaEnginePanic(): string | undefined {
  return panicked;
}

/**
 * Claims the global registry for this engine. The Prisma client installs its
 * own when its module loads, but swaps `set_message` around each of its calls,
 * so ours serves it too.
 */
function claimPanicRegistry(): void {
  if (globalThis.PRISMA_WASM_PANIC_REGISTRY !== registry) {
    globalThis.PRISMA_WASM_PANIC_REGISTRY = registry;
  }
}

/** Runs one engine call, turning its failures (panics included) into SchemaEngineErrors. */
export function engineCall<T>(run: () => Promise<T>): Promise<T> {
  if (panicked) return Promise.reject(panicError());
  return new Promise<T>((resolve, reject) => {
    inFlight.add(reject);
    const settled = () => inFlight.delete(reject);
    const fail = (err: unknown) => {
      settled();
      reject(
        err instanceof Wasm.RuntimeError || panicked
          ? panicError()
          : new SchemaEngineError(
              withoutSpanTrace(err instanceof Error ? err.message : String(err)),
            ),
      );
    };
    try {
      run().then((value) => {
        settled();
        resolve(value);
      }, fail);
    } catch (err) {
      fail(err);
    }
  });
}

// ─── timers ──────────────────────────────────────────────────────────────────

/**
 * The engine arms a 10 s timer for each advisory-lock wait in applyMigrations
 * and never clears it, which kept a CLI alive for 10 s after it was done.
 * Timers are tracked and cleared once no engine is in use.
 */
const engineTimers = new Set<NodeJS.Timeout>();
let enginesInUse = 0;

function trackedSetTimeout(callback: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    engineTimers.delete(timer);
    callback();
  }, ms);
  engineTimers.add(timer);
  return timer;
}

/** Marks an engine as in use until the returned function is called. */
export function useEngine(): () => void {
  enginesInUse += 1;
  claimPanicRegistry();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    enginesInUse -= 1;
    if (enginesInUse > 0) return;
    for (const timer of engineTimers) clearTimeout(timer);
    engineTimers.clear();
  };
}

// ─── loading ─────────────────────────────────────────────────────────────────

/** The glue's exports as the wasm instance's imports, with setTimeout tracked. */
function wasmImports(glue: Glue): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...glue };
  // The import's name carries a build hash (__wbg_setTimeout_5d6a1d4fc51ea450).
  for (const name of Object.keys(imports)) {
    if (name.startsWith("__wbg_setTimeout_")) imports[name] = trackedSetTimeout;
  }
  return imports;
}

let loading: Promise<Glue> | undefined;

/**
 * The package's entry imports the `.wasm` file as an ES module, which Node
 * allows only behind an experimental flag, so it is instantiated by hand.
 * Once per process and on first use: 5 MB of wasm that the console pays for
 * only when it migrates.
 */
export function loadSchemaEngine(): Promise<Glue> {
  if (panicked) return Promise.reject(panicError());
  loading ??= (async () => {
    claimPanicRegistry();
    const glue = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const gluePath = createRequire(import.meta.url).resolve(
      "@prisma/schema-engine-wasm/schema_engine_bg",
    );
    const bytes = await readFile(join(dirname(gluePath), "schema_engine_bg.wasm"));
    const instance = new Wasm.Instance(new Wasm.Module(bytes), {
      "./schema_engine_bg.js": wasmImports(glue),
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  // A failed load (a missing file) is retried by the next call, not cached.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
