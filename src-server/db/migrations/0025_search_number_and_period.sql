-- Search (search/queries.ts): the beginning of a number as it is typed, newest first, is one range of an
-- index in the C collation read backwards (the pattern index gave the range, not the order, and PostgreSQL
-- read the unique index backwards past 255,000 numbers: 70 ms at a million); a direction and a period
-- (incoming of a month) are one range, where PostgreSQL ANDed the period's documents with every document
-- of the direction (60-75 ms).
DROP INDEX "documents_doc_number_prefix_idx";--> statement-breakpoint
CREATE INDEX "documents_doc_number_c_idx" ON "documents" USING btree (("doc_number" collate "C"));--> statement-breakpoint
CREATE INDEX "documents_direction_date_idx" ON "documents" USING btree ("direction",coalesce("registered_at", "created_at"),"id");