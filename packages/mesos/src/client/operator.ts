/**
 * A client for the master's operator API (`POST /api/v1`): the calls a
 * scheduler needs besides its own subscription. Peloton's host manager
 * refreshes its host map from GET_AGENTS (total resources per agent), since
 * offers only show what is free.
 */
import type { OperatorAgent, OperatorCall, OperatorResponse } from "../proto/operator.ts";
import { kindForStatus, MesosError } from "./errors.ts";
import { redirectTarget } from "./http-post.ts";

export interface OperatorOptions {
  timeoutMs?: number;
  maxRedirects?: number;
}

/** The master's operator endpoint for a master given as "http://host:port" (any path). */
export function operatorUrl(master: string): URL {
  const url = new URL(master.includes("://") ? master : `http://${master}`);
  url.pathname = "/api/v1";
  url.search = "";
  return url;
}

/** One operator call; follows 307 to the leading master like the scheduler client. */
export async function operatorCall(
  master: string,
  call: OperatorCall,
  opts: OperatorOptions = {},
): Promise<OperatorResponse | undefined> {
  let url = operatorUrl(master);
  for (let hop = 0; ; hop++) {
    const facts = { url: url.href, callType: call.type };
    let res: Response;
    try {
      res = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(call),
        redirect: "manual",
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
    } catch (err) {
      const timeout = err instanceof Error && err.name === "TimeoutError";
      throw new MesosError(timeout ? "timeout" : "network", { ...facts, cause: err });
    }
    const location = res.headers.get("location");
    if ((res.status === 307 || res.status === 308) && location !== null) {
      await res.body?.cancel();
      if (hop >= (opts.maxRedirects ?? 5)) {
        throw new MesosError("too_many_redirects", { ...facts, status: res.status });
      }
      url = redirectTarget(location, url);
      continue;
    }
    const text = await res.text();
    if (!res.ok) {
      throw new MesosError(kindForStatus(res.status), {
        ...facts,
        status: res.status,
        masterMessage: text.trim(),
      });
    }
    if (text === "") return undefined;
    try {
      return JSON.parse(text) as OperatorResponse;
    } catch (err) {
      throw new MesosError("protocol", { ...facts, status: res.status, cause: err });
    }
  }
}

/** GET_AGENTS: every registered agent with its total, allocated and offered resources. */
export async function getAgents(master: string, opts?: OperatorOptions): Promise<OperatorAgent[]> {
  const answer = await operatorCall(master, { type: "GET_AGENTS" }, opts);
  if (answer?.type !== "GET_AGENTS") {
    throw new MesosError("protocol", {
      callType: "GET_AGENTS",
      masterMessage: "GET_AGENTS answered without get_agents",
    });
  }
  return answer.get_agents.agents ?? [];
}
