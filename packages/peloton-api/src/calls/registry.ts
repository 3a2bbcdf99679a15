/**
 * Every method of every Peloton service in our protos, each either handled
 * (a function from the request to the answer, over the router's caller) or
 * answered UNIMPLEMENTED with the sentence naming what this scheduler lacks.
 * The gRPC server and the YARPC endpoint serve this one table.
 */
import type {
  DescMessage,
  DescMethod,
  DescService,
  MessageInitShape,
  MessageShape,
} from "@bufbuild/protobuf";
import type { Caller } from "./deps.ts";
import { type FieldNaming, statusOf, unimplemented } from "./status.ts";

/** What a handler is given besides the request. */
export interface Call {
  /** The tRPC router as the request's sender. */
  caller: Caller;
  /** Aborted when the client goes away (a stream ends then). */
  signal: AbortSignal;
}

type Handler<M> = M extends {
  methodKind: "server_streaming";
  input: infer I extends DescMessage;
  output: infer O extends DescMessage;
}
  ? (request: MessageShape<I>, call: Call) => AsyncIterable<MessageInitShape<O>>
  : M extends {
        input: infer I extends DescMessage;
        output: infer O extends DescMessage;
      }
    ? (request: MessageShape<I>, call: Call) => Promise<MessageInitShape<O>>
    : never;

/** The methods of `S` this scheduler serves, by their local name (`Get`, `CreateResourcePool`). */
export type Implementation<S extends DescService> = S extends { method: infer Methods }
  ? { [K in keyof Methods]?: Handler<Methods[K]> }
  : never;

/** A served method, untyped: what the transports dispatch to (a stream's yields its answers). */
export type AnyHandler = (request: never, call: Call) => Promise<unknown> | AsyncIterable<unknown>;

export interface ServiceEntry {
  service: DescService;
  handlers: Readonly<Record<string, AnyHandler | undefined>>;
  /** Why a method without a handler is not served: the UNIMPLEMENTED answer's message. */
  missing: (method: DescMethod) => string;
  /**
   * Where a method's request carries what the router names a field of, by
   * method name: `config.` when the router checks the config alone, so that
   * "name: a job needs a name" reads "config.name: …" as the client wrote it;
   * or a function when the request names fields otherwise (`id` → `updateId`).
   */
  fieldPrefix: Readonly<Record<string, FieldNaming>>;
}

/** One service's entry, typed by its descriptor so that each handler's request and answer are checked. */
export function serve<S extends DescService>(
  service: S,
  handlers: Implementation<S>,
  missing: (method: DescMethod) => string,
  fieldPrefix: Readonly<Record<string, FieldNaming>> = {},
): ServiceEntry {
  return {
    service,
    handlers: handlers as unknown as Record<string, AnyHandler | undefined>,
    missing,
    fieldPrefix,
  };
}

export interface ResolvedMethod {
  method: DescMethod;
  /** Null: answer UNIMPLEMENTED with `missing`. */
  handler: AnyHandler | null;
  missing: string;
  fieldPrefix: FieldNaming;
}

export class Registry {
  private readonly byName = new Map<string, ResolvedMethod>();
  private readonly byShortName = new Map<string, ResolvedMethod[]>();

  constructor(readonly entries: readonly ServiceEntry[]) {
    for (const { service, handlers, missing, fieldPrefix } of entries) {
      for (const method of service.methods) {
        const resolved: ResolvedMethod = {
          method,
          handler: handlers[method.localName] ?? handlers[method.name] ?? null,
          missing: missing(method),
          fieldPrefix: fieldPrefix[method.name] ?? "",
        };
        this.byName.set(`${service.typeName}::${method.name}`, resolved);
        const short = `${service.name}.${method.name}`;
        this.byShortName.set(short, [...(this.byShortName.get(short) ?? []), resolved]);
      }
    }
  }

  /**
   * A YARPC procedure in either spelling Peloton's clients send:
   * `peloton.api.v0.job.JobManager::Get`, or `JobManager.Get` when only one
   * served service has that short name (v0's JobManager, not v1alpha's).
   */
  procedure(name: string): ResolvedMethod | { ambiguous: string[] } | null {
    const full = this.byName.get(name);
    if (full) return full;
    const short = this.byShortName.get(name) ?? [];
    if (short.length === 1) return short[0] ?? null;
    if (short.length > 1)
      return { ambiguous: short.map((r) => `${r.method.parent.typeName}::${r.method.name}`) };
    return null;
  }

  methods(): ResolvedMethod[] {
    return [...this.byName.values()];
  }
}

/**
 * Runs a resolved method, or refuses it as UNIMPLEMENTED; any failure comes
 * out as a ConnectError with its gRPC code and sentence (calls/status.ts).
 */
export async function run(
  resolved: ResolvedMethod,
  request: unknown,
  call: Call,
): Promise<unknown> {
  if (!resolved.handler) throw unimplemented(resolved.missing);
  try {
    return await (resolved.handler(request as never, call) as Promise<unknown>);
  } catch (error) {
    throw statusOf(error, resolved.fieldPrefix);
  }
}

/** Runs a server stream, its failures as ConnectErrors like `run`'s. */
export async function* runStream(
  resolved: ResolvedMethod,
  request: unknown,
  call: Call,
): AsyncGenerator<unknown> {
  if (!resolved.handler) throw unimplemented(resolved.missing);
  try {
    yield* resolved.handler(request as never, call) as AsyncIterable<unknown>;
  } catch (error) {
    throw statusOf(error, resolved.fieldPrefix);
  }
}
