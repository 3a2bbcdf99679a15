import { defineConfig } from "prisma/config";

// Used by `prisma generate` only: migrations are applied by our own runner
// (packages/storage/src/migrations) because the CLI's schema engine cannot be
// downloaded offline (shared/design/prisma-offline.md).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
});
