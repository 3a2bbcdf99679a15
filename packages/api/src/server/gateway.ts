import { ChangeListener, openGateway, type StorageGateway } from "@peloton/storage";

/**
 * One storage gateway and one change listener per server process. Kept on
 * globalThis so that module re-evaluation (Next's dev server) does not open a
 * new pool or LISTEN connection each time.
 */
const holder = globalThis as unknown as {
  __pelotonGateway?: StorageGateway;
  __pelotonChanges?: ChangeListener;
};

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start the console with `npm start`");
  return url;
}

export function processGateway(): StorageGateway {
  holder.__pelotonGateway ??= openGateway(databaseUrl());
  return holder.__pelotonGateway;
}

export function processChanges(): ChangeListener {
  holder.__pelotonChanges ??= new ChangeListener(databaseUrl(), {
    onError: (err) => console.error(`live updates: ${err.message} (reconnecting)`),
  });
  return holder.__pelotonChanges;
}
