CREATE TABLE "dispositions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dispositions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"file_id" integer NOT NULL,
	"action" text NOT NULL,
	"state" text DEFAULT 'proposed' NOT NULL,
	"legal_reference" text NOT NULL,
	"note" text,
	"proposed_by" integer,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"approved_by" integer,
	"approved_at" timestamp with time zone,
	"executed_by" integer,
	"executed_at" timestamp with time zone,
	"cancelled_by" integer,
	"cancelled_at" timestamp with time zone,
	"record" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"output_sha256" text,
	CONSTRAINT "dispositions_action_check" CHECK ("dispositions"."action" in ('destroy', 'transfer')),
	CONSTRAINT "dispositions_state_check" CHECK ("dispositions"."state" in ('proposed', 'approved', 'done', 'cancelled')),
	CONSTRAINT "dispositions_two_people_check" CHECK ("dispositions"."approved_by" is null or "dispositions"."approved_by" <> "dispositions"."proposed_by")
);
--> statement-breakpoint
CREATE TABLE "legal_holds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "legal_holds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer,
	"file_id" integer,
	"reason" text NOT NULL,
	"placed_by" integer,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_by" integer,
	"lifted_at" timestamp with time zone,
	CONSTRAINT "legal_holds_one_target_check" CHECK (("legal_holds"."document_id" is null) <> ("legal_holds"."file_id" is null))
);
--> statement-breakpoint
CREATE TABLE "record_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "record_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"title_ar" text NOT NULL,
	"title_en" text NOT NULL,
	"department_id" integer,
	"opened_on" date NOT NULL,
	"closed_on" date,
	"retention_years" integer,
	"retention_action" text,
	"retention_reference" text,
	"disposed" text,
	"disposed_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "record_files_retention_check" CHECK (("record_files"."retention_years" is null) = ("record_files"."retention_action" is null) and ("record_files"."retention_years" is null or "record_files"."retention_years" >= 0)),
	CONSTRAINT "record_files_retention_action_check" CHECK ("record_files"."retention_action" is null or "record_files"."retention_action" in ('destroy', 'transfer', 'permanent')),
	CONSTRAINT "record_files_disposed_check" CHECK ("record_files"."disposed" is null or "record_files"."disposed" in ('destroy', 'transfer')),
	CONSTRAINT "record_files_closed_check" CHECK ("record_files"."closed_on" is null or "record_files"."closed_on" >= "record_files"."opened_on")
);
--> statement-breakpoint
CREATE TABLE "retention_schedules" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "retention_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"codification_id" integer NOT NULL,
	"years" integer NOT NULL,
	"action" text NOT NULL,
	"legal_reference" text NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_schedules_action_check" CHECK ("retention_schedules"."action" in ('destroy', 'transfer', 'permanent')),
	CONSTRAINT "retention_schedules_years_check" CHECK ("retention_schedules"."years" >= 0)
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "file_id" integer;--> statement-breakpoint
ALTER TABLE "dispositions" ADD CONSTRAINT "dispositions_file_id_record_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."record_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispositions" ADD CONSTRAINT "dispositions_proposed_by_users_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispositions" ADD CONSTRAINT "dispositions_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispositions" ADD CONSTRAINT "dispositions_executed_by_users_id_fk" FOREIGN KEY ("executed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispositions" ADD CONSTRAINT "dispositions_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_file_id_record_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."record_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_placed_by_users_id_fk" FOREIGN KEY ("placed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_holds" ADD CONSTRAINT "legal_holds_lifted_by_users_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_files" ADD CONSTRAINT "record_files_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_files" ADD CONSTRAINT "record_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_schedules" ADD CONSTRAINT "retention_schedules_codification_id_correspondence_settings_id_fk" FOREIGN KEY ("codification_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_schedules" ADD CONSTRAINT "retention_schedules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dispositions_under_way_idx" ON "dispositions" USING btree ("file_id") WHERE "dispositions"."state" in ('proposed', 'approved');--> statement-breakpoint
CREATE INDEX "legal_holds_document_idx" ON "legal_holds" USING btree ("document_id") WHERE "legal_holds"."lifted_at" is null;--> statement-breakpoint
CREATE INDEX "legal_holds_file_idx" ON "legal_holds" USING btree ("file_id") WHERE "legal_holds"."lifted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "record_files_code_idx" ON "record_files" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "record_files_department_idx" ON "record_files" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "record_files_closed_idx" ON "record_files" USING btree ("closed_on");--> statement-breakpoint
CREATE UNIQUE INDEX "retention_schedules_codification_idx" ON "retention_schedules" USING btree ("codification_id");--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_file_id_record_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."record_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_file_idx" ON "documents" USING btree ("file_id");--> statement-breakpoint
-- Data step (hand-written): the free-text grouping becomes a file. One file per distinct grouping (trimmed),
-- coded F-0001… in the order of the text, titled with the text in both languages, opened on the day its first
-- document was made, in the department of the archive office holding its documents when they are all held by
-- one; its documents are linked to it. The grouping column goes after.
WITH g AS (
	SELECT btrim("grouping") AS title,
		CASE WHEN count(DISTINCT "archive_department_id") = 1 THEN min("archive_department_id") END AS department_id,
		min("created_at")::date AS opened_on
	FROM "documents" WHERE "grouping" IS NOT NULL AND btrim("grouping") <> ''
	GROUP BY btrim("grouping")
), made AS (
	INSERT INTO "record_files" ("code", "title_ar", "title_en", "department_id", "opened_on")
	SELECT 'F-' || lpad((row_number() OVER (ORDER BY title))::text, 4, '0'), title, title, department_id, opened_on FROM g
	RETURNING "id", "title_ar"
)
UPDATE "documents" d SET "file_id" = made."id" FROM made WHERE btrim(d."grouping") = made."title_ar";--> statement-breakpoint
ALTER TABLE "documents" DROP COLUMN "grouping";