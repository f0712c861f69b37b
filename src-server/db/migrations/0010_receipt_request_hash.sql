ALTER TABLE "document_receipts" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "intake_receipts" ADD COLUMN "request_hash" text;