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
CREATE TABLE "background_jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "background_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"key" text,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"progress" jsonb,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "background_jobs_state_check" CHECK ("background_jobs"."state" in ('queued', 'running', 'done', 'dead')),
	CONSTRAINT "background_jobs_attempts_check" CHECK ("background_jobs"."attempts" >= 0 and "background_jobs"."max_attempts" >= 1)
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
CREATE UNIQUE INDEX "background_jobs_key_idx" ON "background_jobs" USING btree ("kind","key") WHERE "background_jobs"."key" is not null and "background_jobs"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "background_jobs_claim_idx" ON "background_jobs" USING btree ("state","run_at");--> statement-breakpoint
CREATE INDEX "document_search_lexemes_idx" ON "document_search" USING gin ("lexemes");--> statement-breakpoint
CREATE INDEX "documents_sender_number_idx" ON "documents" USING btree (upper(translate("sender_document_number", '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹', '01234567890123456789')));--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_text_status_check" CHECK ("document_attachments"."text_status" in ('pending', 'reading', 'done', 'failed'));--> statement-breakpoint
-- The generated search columns were dropped and added again (the normalisation now also unifies hamza on
-- waw and ya, the Persian letters and the digits); their trigram indexes went with them.
CREATE INDEX "departments_search_trgm_idx" ON "departments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "employees_search_trgm_idx" ON "employees" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "documents_subject_trgm_idx" ON "documents" USING gin ("subject_search" gin_trgm_ops);--> statement-breakpoint
-- Search work is enqueued by the database itself: whatever writes a document's searched fields, its
-- receivers, the notes of its distributions and tasks, or its attachments, the index follows (a job
-- `search.index` per document, one queued at a time), and a new attachment is read (`search.read`).
CREATE FUNCTION search_enqueue_index(doc integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO background_jobs (kind, payload, key)
    VALUES ('search.index', jsonb_build_object('documentId', doc), 'document:' || doc)
    ON CONFLICT DO NOTHING;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_document_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_enqueue_index(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_child_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM search_enqueue_index(OLD.document_id);
  ELSE
    PERFORM search_enqueue_index(NEW.document_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION search_attachment_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO background_jobs (kind, payload, key, max_attempts)
    VALUES ('search.read', jsonb_build_object('attachmentId', NEW.id), 'attachment:' || NEW.id, 3)
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_search_inserted AFTER INSERT ON documents
  FOR EACH ROW EXECUTE FUNCTION search_document_changed();
--> statement-breakpoint
CREATE TRIGGER documents_search_updated AFTER UPDATE ON documents FOR EACH ROW
  WHEN (OLD.doc_number IS DISTINCT FROM NEW.doc_number
    OR OLD.sender_document_number IS DISTINCT FROM NEW.sender_document_number
    OR OLD.subject IS DISTINCT FROM NEW.subject
    OR OLD.summary IS DISTINCT FROM NEW.summary
    OR OLD.sender_department_id IS DISTINCT FROM NEW.sender_department_id
    OR OLD.receiver IS DISTINCT FROM NEW.receiver
    OR OLD.recipient_department_id IS DISTINCT FROM NEW.recipient_department_id)
  EXECUTE FUNCTION search_document_changed();
--> statement-breakpoint
CREATE TRIGGER document_recipients_search AFTER INSERT OR DELETE ON document_recipients
  FOR EACH ROW EXECUTE FUNCTION search_child_changed();
--> statement-breakpoint
CREATE TRIGGER distributions_search AFTER INSERT OR DELETE OR UPDATE OF notes ON distributions
  FOR EACH ROW EXECUTE FUNCTION search_child_changed();
--> statement-breakpoint
CREATE TRIGGER tasks_search AFTER INSERT OR DELETE OR UPDATE OF notes ON tasks
  FOR EACH ROW EXECUTE FUNCTION search_child_changed();
--> statement-breakpoint
CREATE TRIGGER document_attachments_search_deleted AFTER DELETE ON document_attachments
  FOR EACH ROW EXECUTE FUNCTION search_child_changed();
--> statement-breakpoint
CREATE TRIGGER document_attachments_search_added AFTER INSERT ON document_attachments
  FOR EACH ROW EXECUTE FUNCTION search_attachment_added();
