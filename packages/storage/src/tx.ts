import type { Prisma, PrismaClient } from "./generated/prisma/client.ts";

/** Either the client or an open transaction: repositories work on both. */
export type DbOrTx = PrismaClient | Prisma.TransactionClient;
