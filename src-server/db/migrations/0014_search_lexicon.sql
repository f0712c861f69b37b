ALTER TABLE "attachment_pages" ADD COLUMN "lexicon" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "document_search" ADD COLUMN "lexicon" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX "documents_doc_number_prefix_idx" ON "documents" USING btree ("doc_number" text_pattern_ops);