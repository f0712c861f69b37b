CREATE TABLE "attachment_pages" (
	"attachment_id" integer NOT NULL,
	"page" integer NOT NULL,
	"method" text NOT NULL,
	"text" text NOT NULL,
	"lexemes" "tsvector" NOT NULL,
	CONSTRAINT "attachment_pages_attachment_id_page_pk" PRIMARY KEY("attachment_id","page"),
	CONSTRAINT "attachment_pages_method_check" CHECK ("attachment_pages"."method" in ('text', 'ocr', 'empty'))
);
--> statement-breakpoint
CREATE TABLE "document_search" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"lexemes" "tsvector" NOT NULL,
	"indexed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "departments" drop column "search_text";--> statement-breakpoint
ALTER TABLE "departments" ADD COLUMN "search_text" text GENERATED ALWAYS AS (btrim(regexp_replace(lower(regexp_replace(translate("name_ar" || ' ' || "name_en", 'أإآٱؤئىیةک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', 'ااااءءييهك01234567890123456789'), '[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]', '', 'g')), '\s+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" drop column "subject_search";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "subject_search" text GENERATED ALWAYS AS (btrim(regexp_replace(lower(regexp_replace(translate("subject", 'أإآٱؤئىیةک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', 'ااااءءييهك01234567890123456789'), '[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]', '', 'g')), '\s+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "employees" drop column "search_text";--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "search_text" text GENERATED ALWAYS AS (btrim(regexp_replace(lower(regexp_replace(translate("first_name_ar" || ' ' || "last_name_ar" || ' ' || "first_name_en" || ' ' || "last_name_en", 'أإآٱؤئىیةک٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', 'ااااءءييهك01234567890123456789'), '[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]', '', 'g')), '\s+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD COLUMN "text_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD COLUMN "text_error" text;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD COLUMN "text_pages_done" integer;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD COLUMN "text_pages" integer;--> statement-breakpoint
ALTER TABLE "attachment_pages" ADD CONSTRAINT "attachment_pages_attachment_id_document_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."document_attachments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_search" ADD CONSTRAINT "document_search_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_search_lexemes_idx" ON "document_search" USING gin ("lexemes");--> statement-breakpoint
CREATE INDEX "documents_sender_number_idx" ON "documents" USING btree (upper(translate("sender_document_number", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789')));--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_text_status_check" CHECK ("document_attachments"."text_status" in ('pending', 'reading', 'done', 'failed'));--> statement-breakpoint
-- The generated search columns were dropped and added again (the normalisation now also unifies hamza on
-- waw and ya, the Persian letters and the digits); their trigram indexes went with them.
CREATE INDEX "departments_search_trgm_idx" ON "departments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_search_trgm_idx" ON "employees" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_subject_trgm_idx" ON "documents" USING gin ("subject_search" gin_trgm_ops);
