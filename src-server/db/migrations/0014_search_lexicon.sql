ALTER TABLE "attachment_pages" ADD COLUMN "lexicon" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "document_search" ADD COLUMN "lexicon" smallint DEFAULT 1 NOT NULL;