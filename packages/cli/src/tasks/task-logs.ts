/**
 * `peloton task logs`: a run's stdout or stderr, read whole (Peloton
 * downloads the file from the agent's sandbox), or followed as it grows over
 * the API's log stream until the run ends or the user presses Ctrl-C.
 */
import type { ApiClient } from "../api-client.ts";
import { CliError } from "../errors.ts";

export interface LogTarget {
  jobId: string;
  instance: number;
  run: number | undefined;
  file: "stdout" | "stderr";
}

const CHUNK = 1_048_576;

/** Writes the whole file, a megabyte at a time. */
export async function printLog(
  api: ApiClient,
  target: LogTarget,
  write: (s: string) => void,
): Promise<void> {
  let offset = 0;
  for (;;) {
    const chunk = await api.tasks.logs.query({
      ...target,
      ...(target.run === undefined ? {} : { run: target.run }),
      offset,
      length: CHUNK,
    });
    write(chunk.data);
    if (Buffer.byteLength(chunk.data) < CHUNK) return;
    offset = chunk.nextOffset;
  }
}

/**
 * Follows the file from its last `tail` bytes: new output is written as it
 * arrives; why nothing can be read yet goes to `warn`. Resolves when the run
 * has ended and its file is read, or on SIGINT.
 */
export function followLog(
  api: ApiClient,
  target: LogTarget,
  io: { write: (s: string) => void; warn: (s: string) => void },
): Promise<void> {
  return new Promise((resolve, reject) => {
    let lastWaiting: string | null = null;
    let ended = false;
    let done = false;
    const finish = (err?: Error) => {
      // Unsubscribing completes the stream at once: only the first reason to finish counts.
      if (done) return;
      done = true;
      process.off("SIGINT", onInterrupt);
      subscription.unsubscribe();
      if (err) reject(err);
      else resolve();
    };
    const onInterrupt = () => finish();
    const subscription = api.tasks.logsFollow.subscribe(
      {
        jobId: target.jobId,
        instance: target.instance,
        ...(target.run === undefined ? {} : { run: target.run }),
        file: target.file,
        offset: -1,
      },
      {
        onData: (message) => {
          if (message.kind === "chunk") {
            lastWaiting = null;
            io.write(message.data);
          } else if (message.kind === "waiting") {
            lastWaiting = message.message;
            io.warn(message.message);
          } else {
            ended = true;
            finish();
          }
        },
        onError: (err) => finish(err),
        // The stream closes without an end only when the run cannot be found.
        onComplete: () =>
          ended ? undefined : finish(lastWaiting ? new CliError(lastWaiting) : undefined),
      },
    );
    process.once("SIGINT", onInterrupt);
  });
}
