/**
 * The checkpoint on disk: a snapshot (`checkpoint.json`) and the journal of
 * records appended since (`journal-<n>.jsonl`), both in `<data dir>/meta/`.
 *
 * Writes are cheap: a record is folded into the in-memory state and queued;
 * the queue is written with one write(2) per event-loop turn, or at once by
 * `flush()` (before a task's process is spawned, so no process can exist
 * that the journal does not name). A crash can tear only the last line,
 * which replay ignores. Compaction writes the whole state to a new snapshot
 * naming a new, empty journal (temporary file + rename: the switch is
 * atomic), then deletes the old journal.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { isRunning, procStat } from "./proc.ts";
import {
  applyRecord,
  type CheckpointRecord,
  type CheckpointState,
  emptyState,
  fromSnapshot,
  type SnapshotJson,
  toSnapshot,
} from "./records.ts";

const SNAPSHOT = "checkpoint.json";
/** `<pid> <start time>` of the sim using the dir: two sims on one checkpoint would corrupt it. */
const LOCK = "lock";
/** Compaction when the journal holds this many records and more than twice the live state. */
const MIN_COMPACT_RECORDS = 20_000;

export class CheckpointStore {
  private fd: number;
  private journal: string;
  private generation: number;
  private queue: string[] = [];
  private scheduled = false;
  private records = 0;
  private closed = false;

  private constructor(
    readonly dir: string,
    readonly state: CheckpointState,
    journal: string,
    generation: number,
    private readonly log: (line: string) => void,
  ) {
    this.journal = journal;
    this.generation = generation;
    this.fd = openSync(join(dir, journal), "a");
  }

  /** Loads the checkpoint of `dir` (created if missing); a torn last journal line is skipped. */
  static open(dir: string, log: (line: string) => void): CheckpointStore {
    mkdirSync(dir, { recursive: true });
    lock(dir);
    const snapshotPath = join(dir, SNAPSHOT);
    let state = emptyState();
    let journal = "journal-0.jsonl";
    if (existsSync(snapshotPath)) {
      const json = JSON.parse(readFileSync(snapshotPath, "utf8")) as SnapshotJson;
      if (json.version !== 1) throw new Error(`${snapshotPath}: unknown checkpoint version`);
      state = fromSnapshot(json);
      journal = json.journal;
    }
    const generation = Number(/journal-(\d+)\.jsonl$/.exec(journal)?.[1] ?? 0);
    const journalPath = join(dir, journal);
    let replayed = 0;
    if (existsSync(journalPath)) {
      const lines = readFileSync(journalPath, "utf8").split("\n");
      for (const [i, line] of lines.entries()) {
        if (line === "") continue;
        let record: CheckpointRecord;
        try {
          record = JSON.parse(line) as CheckpointRecord;
        } catch {
          // Only the last line can be torn (a crash mid-write); anything after it is not trusted.
          if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l !== "")) {
            log(`checkpoint: ${journalPath} line ${i + 1} is unreadable; later records ignored`);
          }
          break;
        }
        applyRecord(state, record);
        replayed++;
      }
    }
    const store = new CheckpointStore(dir, state, journal, generation, log);
    store.records = replayed;
    return store;
  }

  /** Folds `record` into the state and queues it for the journal. */
  append(record: CheckpointRecord): void {
    if (this.closed) return;
    applyRecord(this.state, record);
    this.queue.push(`${JSON.stringify(record)}\n`);
    this.records++;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        try {
          this.flush();
        } catch (err) {
          // Disk full or gone: the sim keeps serving; a restart then knows less.
          this.log(`checkpoint: write failed: ${err instanceof Error ? err.message : err}`);
          return;
        }
        this.maybeCompact();
      });
    }
  }

  /** Writes every queued record now. */
  flush(): void {
    if (this.closed || this.queue.length === 0) return;
    const text = this.queue.join("");
    this.queue = [];
    writeSync(this.fd, text);
  }

  /** A new snapshot of the whole state and an empty journal; the old journal is deleted. */
  compact(): void {
    if (this.closed) return;
    this.flush();
    const next = `journal-${this.generation + 1}.jsonl`;
    const nextFd = openSync(join(this.dir, next), "w");
    const tmp = join(this.dir, `${SNAPSHOT}.tmp`);
    writeFileSync(tmp, JSON.stringify(toSnapshot(this.state, next)));
    renameSync(tmp, join(this.dir, SNAPSHOT));
    closeSync(this.fd);
    rmSync(join(this.dir, this.journal), { force: true });
    this.fd = nextFd;
    this.journal = next;
    this.generation++;
    this.records = 0;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.fd);
    rmSync(join(this.dir, LOCK), { force: true });
  }

  private maybeCompact(): void {
    if (this.records < MIN_COMPACT_RECORDS) return;
    let live = this.state.tasks.size + this.state.agents.size;
    for (const perTask of this.state.updates.values()) live += perTask.size;
    if (this.records < 2 * live) return;
    try {
      this.compact();
    } catch (err) {
      this.log(`checkpoint: compaction failed: ${err instanceof Error ? err.message : err}`);
    }
  }
}

/**
 * Takes the dir for this process, refusing it while another live process
 * holds it; a lock left by a dead one (a crash) is taken over.
 */
function lock(dir: string): void {
  const path = join(dir, LOCK);
  if (existsSync(path)) {
    const [pidText, startTime] = readFileSync(path, "utf8").trim().split(" ");
    const pid = Number(pidText);
    if (Number.isInteger(pid) && pid !== process.pid && isRunning(pid, startTime || undefined)) {
      throw new Error(
        `mesos-sim: ${dir} is in use by another mesos-sim (process ${pid}); give this one its own data dir`,
      );
    }
  }
  const tmp = `${path}.${process.pid}`;
  writeFileSync(tmp, `${process.pid} ${procStat(process.pid)?.startTime ?? ""}\n`);
  renameSync(tmp, path);
}
