/**
 * How many calls the console puts in one /api/trpc batch (httpBatchLink's `maxItems`). The server
 * refuses batches over CONSOLE_MAX_BATCH_SIZE, which may not be set below this. No imports: the
 * console's transport imports it too.
 */
export const CONSOLE_BATCH_ITEMS = 10;
