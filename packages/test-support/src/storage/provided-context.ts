// What the integration global setup hands to the tests (`inject("databaseUrl")`).
declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export {};
