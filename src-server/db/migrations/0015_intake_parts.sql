ALTER TABLE "intake_receipts" ADD COLUMN "pages" integer[];--> statement-breakpoint
ALTER TABLE "intake_receipts" ADD COLUMN "parts" integer;