/** drizzle-kit: generates SQL migrations from src-server/db/schema.ts into src-server/db/migrations. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src-server/db/schema.ts',
  out: './src-server/db/migrations',
});
