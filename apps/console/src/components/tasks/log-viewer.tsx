"use client";
/**
 * One run's stdout or stderr, live: the tail first, then whatever the task
 * writes, streamed over `tasks.logsFollow` until the run ends. Pause stops the
 * stream and remembers where it was; resume goes on from there. The view
 * follows the end unless the reader scrolled up (or locked it); earlier parts
 * load on request; the whole file downloads. A search keeps the lines that
 * contain it (marked), and long lines wrap or scroll sideways.
 */
import { useSubscription } from "@trpc/tanstack-react-query";
import { ArrowDownToLine, Download, Pause, Play, WrapText } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FilterInput } from "@/components/ui/filter-input";
import { formatBytes } from "@/lib/format";
import { useTRPC, useTRPCClient } from "@/lib/trpc";

export const LOG_FILES = ["stdout", "stderr"] as const;
export type LogFile = (typeof LOG_FILES)[number];

/** Which of a run's files to read. */
export function LogFileToggle({
  value,
  onChange,
}: {
  value: LogFile;
  onChange: (f: LogFile) => void;
}) {
  return (
    <fieldset className="flex gap-1">
      <legend className="sr-only">File</legend>
      {LOG_FILES.map((f) => (
        <button
          key={f}
          type="button"
          aria-pressed={value === f}
          onClick={() => onChange(f)}
          className={`rounded-md border px-2 py-0.5 font-mono text-xs ${value === f ? "border-accent bg-surface-2" : "border-border text-muted hover:text-fg"}`}
        >
          {f}
        </button>
      ))}
    </fieldset>
  );
}

/** A run's default file: stderr when the run failed (the why is there), stdout otherwise. */
export function defaultLogFile(runState: string | undefined): LogFile {
  return runState === "FAILED" ? "stderr" : "stdout";
}

/** The lines containing `search` (any case), each with its matches marked. */
function matchingLines(text: string, search: string): { lines: ReactNode[]; count: number } {
  const needle = search.toLowerCase();
  const lines: ReactNode[] = [];
  let count = 0;
  text.split("\n").forEach((line, n) => {
    const lower = line.toLowerCase();
    if (!lower.includes(needle)) return;
    const parts: ReactNode[] = [];
    let at = 0;
    for (let i = lower.indexOf(needle); i !== -1; i = lower.indexOf(needle, at)) {
      parts.push(line.slice(at, i));
      parts.push(
        <mark key={i} className="rounded-sm bg-warn/40 text-fg">
          {line.slice(i, i + needle.length)}
        </mark>,
      );
      at = i + needle.length;
      count++;
    }
    parts.push(line.slice(at));
    lines.push(
      // biome-ignore lint/suspicious/noArrayIndexKey: a line's number in the text is what identifies it
      <span key={n} className="block" data-line={n + 1}>
        {parts}
      </span>,
    );
  });
  return { lines, count };
}

/** What the page keeps of a log: enough to read, not the whole of a huge file. */
const KEEP_BYTES = 2 * 1024 * 1024;
const EARLIER_BYTES = 64 * 1024;
const DOWNLOAD_CHUNK = 1024 * 1024;

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

type Status = "connecting" | "following" | "waiting" | "paused" | "ended" | "failed";

export interface LogTarget {
  jobId: string;
  instance: number;
  run: number;
  file: LogFile;
}

/** Keys the viewer's state to one run and file: a new target starts afresh. */
export const logTargetKey = (t: LogTarget) => `${t.jobId}/${t.instance}/${t.run}/${t.file}`;

export function LogViewer({
  target,
  height = "min-h-24 max-h-96",
}: {
  target: LogTarget;
  /** The text box's height classes: grows with the log up to a limit by default. */
  height?: string;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  /** The text shown and the byte offset of its first byte (null before any). */
  const [{ text, start }, setShown] = useState<{ text: string; start: number | null }>({
    text: "",
    start: null,
  });
  const shown = useRef({ text, start });
  const show = (t: string, s: number | null) => {
    shown.current = { text: t, start: s };
    setShown(shown.current);
  };
  /** Where the stream goes on from after a pause. */
  const next = useRef(-1);
  const [resumeFrom, setResumeFrom] = useState(-1);
  const [status, setStatus] = useState<Status>("connecting");
  const [note, setNote] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);
  const [stick, setStick] = useState(true);
  const [downloading, setDownloading] = useState(false);
  const [search, setSearch] = useState("");
  const [wrap, setWrap] = useState(true);
  const found = useMemo(() => (search ? matchingLines(text, search) : null), [text, search]);
  const box = useRef<HTMLPreElement>(null);

  useSubscription(
    trpc.tasks.logsFollow.subscriptionOptions(
      {
        jobId: target.jobId,
        instance: target.instance,
        run: target.run,
        file: target.file,
        offset: resumeFrom,
      },
      {
        enabled: !paused && status !== "ended",
        onData: (m) => {
          if (m.kind === "chunk") {
            setNote(null);
            setStatus("following");
            next.current = m.nextOffset;
            // Keep the last KEEP_BYTES characters; what is dropped moves the start on.
            const joined = shown.current.text + m.data;
            const cut = Math.max(0, joined.length - KEEP_BYTES);
            const first = shown.current.start ?? m.offset;
            show(joined.slice(cut), first + byteLength(joined.slice(0, cut)));
          } else if (m.kind === "waiting") {
            setStatus("waiting");
            setNote(m.message);
          } else {
            setStatus("ended");
            setNote(null);
          }
        },
        onError: (err) => {
          setStatus("failed");
          setNote(err.message);
        },
      },
    ),
  );

  // Follow the end while the reader is there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: new text is what moves the end
  useEffect(() => {
    if (stick && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [text, stick]);

  const pause = () => {
    setPaused(true);
    setStatus("paused");
  };
  const resume = () => {
    setResumeFrom(next.current);
    setPaused(false);
    setStatus("connecting");
  };

  const loadEarlier = async () => {
    if (!start) return;
    const from = Math.max(0, start - EARLIER_BYTES);
    const chunk = await client.tasks.logs.query({ ...target, offset: from, length: start - from });
    show(chunk.data + shown.current.text, from);
    setStick(false);
  };

  const download = async () => {
    setDownloading(true);
    try {
      const parts: string[] = [];
      for (let offset = 0; ; ) {
        const chunk = await client.tasks.logs.query({ ...target, offset, length: DOWNLOAD_CHUNK });
        parts.push(chunk.data);
        if (byteLength(chunk.data) < DOWNLOAD_CHUNK) break;
        offset = chunk.nextOffset;
      }
      const url = URL.createObjectURL(new Blob(parts, { type: "text/plain" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `${target.jobId.slice(0, 8)}-${target.instance}-run${target.run}-${target.file}.log`;
      a.click();
      URL.revokeObjectURL(url);
    } finally {
      setDownloading(false);
    }
  };

  const words: Record<Status, string> = {
    connecting: "Connecting…",
    following: "Following",
    waiting: "Waiting",
    paused: "Paused",
    ended: "Run ended: the whole log is shown",
    failed: "Stream failed",
  };
  return (
    <div
      className="space-y-2"
      data-testid="log-viewer"
      data-status={status}
      data-file={target.file}
    >
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span
          className={`flex items-center gap-1.5 ${status === "failed" ? "text-bad" : "text-muted"}`}
          data-testid="log-status"
          role="status"
        >
          <span
            aria-hidden
            className={`size-2 rounded-full ${
              status === "following"
                ? "animate-pulse bg-ok"
                : status === "failed"
                  ? "bg-bad"
                  : status === "ended"
                    ? "bg-idle"
                    : "bg-warn"
            }`}
          />
          {words[status]}
        </span>
        <span className="text-muted">
          · {formatBytes(byteLength(text))} shown
          {start ? ` from byte ${start.toLocaleString("en-US")}` : ""}
        </span>
        <span className="ml-auto flex flex-wrap items-center gap-1.5">
          <FilterInput
            aria-label={`Search ${target.file}`}
            placeholder="Search…"
            value={search}
            onCommit={setSearch}
            className="h-7 w-40 rounded-md border border-border bg-surface px-2 text-xs"
            data-testid="log-search"
          />
          {found && (
            <span className="text-muted" data-testid="log-matches" role="status">
              {found.lines.length} line{found.lines.length === 1 ? "" : "s"} match
            </span>
          )}
          <Button
            size="sm"
            aria-pressed={wrap}
            onClick={() => setWrap((w) => !w)}
            title={
              wrap ? "Long lines wrap; click to scroll them sideways" : "Click to wrap long lines"
            }
          >
            <WrapText className="size-3.5" aria-hidden />
            Wrap
          </Button>
          {start ? (
            <Button size="sm" variant="ghost" onClick={() => void loadEarlier()}>
              Load earlier
            </Button>
          ) : null}
          {status !== "ended" &&
            (paused ? (
              <Button size="sm" onClick={resume}>
                <Play className="size-3.5" aria-hidden /> Resume
              </Button>
            ) : (
              <Button size="sm" onClick={pause}>
                <Pause className="size-3.5" aria-hidden /> Pause
              </Button>
            ))}
          {status !== "ended" && (
            <Button
              size="sm"
              aria-pressed={stick}
              onClick={() => setStick((s) => !s)}
              title={
                stick
                  ? "The view follows new output; click to stay where you are"
                  : "Click to follow new output"
              }
            >
              <ArrowDownToLine className="size-3.5" aria-hidden />
              {stick ? "Following end" : "Scroll locked"}
            </Button>
          )}
          <Button
            size="sm"
            onClick={() => void download()}
            disabled={downloading || text.length === 0}
            title={text.length === 0 ? "Nothing to download yet" : undefined}
          >
            <Download className="size-3.5" aria-hidden />
            {downloading ? "Downloading…" : "Download"}
          </Button>
        </span>
      </div>
      {note && (
        <p
          className="rounded-md border border-warn/40 bg-warn/5 px-3 py-1.5 text-xs"
          data-testid="log-note"
        >
          {note}
        </p>
      )}
      <section aria-label={`${target.file} of instance ${target.instance}, run ${target.run}`}>
        <pre
          ref={box}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must be reachable by keyboard to scroll it
          tabIndex={0}
          data-testid="log-text"
          onScroll={(e) => {
            const el = e.currentTarget;
            const atEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
            if (atEnd !== stick) setStick(atEnd);
          }}
          data-wrap={wrap}
          className={`${height} overflow-auto ${wrap ? "whitespace-pre-wrap break-all" : "whitespace-pre"} rounded-md border border-border bg-surface-2 p-3 font-mono text-xs leading-5`}
        >
          {found
            ? found.lines.length > 0
              ? found.lines
              : `(no line of what is shown contains "${search}")`
            : text || (status === "ended" ? "(empty)" : "")}
        </pre>
      </section>
    </div>
  );
}
