/**
 * A password from the terminal without echo, or all of stdin
 * (`--password-stdin`, for scripts: `echo "$PW" | peloton login …`).
 */
import { CliError } from "./errors.ts";

type Input = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => void };

async function readAll(input: Input): Promise<string> {
  let text = "";
  for await (const chunk of input) text += chunk.toString();
  return text.replace(/\r?\n$/, "");
}

/** Reads keys in raw mode until Enter; nothing typed is echoed. Ctrl-C aborts. */
function readHidden(input: Input, prompt: string): Promise<string> {
  process.stderr.write(prompt);
  input.setRawMode?.(true);
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const done = (err?: Error) => {
      input.setRawMode?.(false);
      input.pause();
      input.removeListener("data", onData);
      process.stderr.write("\n");
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of chunk.toString()) {
        if (ch === "\r" || ch === "\n") return done();
        if (ch === "\u0003") return done(new CliError("cancelled"));
        if (ch === "\u007f" || ch === "\b") typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    input.on("data", onData);
  });
}

export async function readPassword(
  input: Input,
  fromStdin: boolean,
  prompt: string,
): Promise<string> {
  if (fromStdin) return readAll(input);
  if (!input.isTTY) throw new CliError("no terminal to ask for the password: use --password-stdin");
  return readHidden(input, prompt);
}
