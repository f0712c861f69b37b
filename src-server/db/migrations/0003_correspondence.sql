CREATE TABLE "correspondence_settings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "correspondence_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"list" text NOT NULL,
	"name_ar" text,
	"name_en" text,
	"level" integer,
	"prefix" text,
	"direction" text,
	"department_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "distributions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "distributions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer NOT NULL,
	"department_id" integer NOT NULL,
	"type" text NOT NULL,
	"notes" text,
	"registered_at" timestamp with time zone NOT NULL,
	"security_rank" integer DEFAULT 0 NOT NULL,
	"distributed_by" integer,
	"distributed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "document_attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "document_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint NOT NULL,
	"mime" text NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_counters" (
	"codification_id" integer NOT NULL,
	"year" integer NOT NULL,
	"next" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "document_counters_codification_id_year_pk" PRIMARY KEY("codification_id","year")
);
--> statement-breakpoint
CREATE TABLE "document_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"event" text NOT NULL,
	"actor_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_follows" (
	"user_id" integer NOT NULL,
	"document_id" integer NOT NULL,
	"due_date" date,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_follows_user_id_document_id_pk" PRIMARY KEY("user_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "document_relations" (
	"document_id" integer NOT NULL,
	"related_id" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_relations_document_id_related_id_pk" PRIMARY KEY("document_id","related_id")
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "documents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"direction" text NOT NULL,
	"state" text DEFAULT 'draft' NOT NULL,
	"codification_id" integer,
	"year" integer,
	"sequence" integer,
	"doc_number" text,
	"sender_document_number" text,
	"subject" text NOT NULL,
	"subject_search" text GENERATED ALWAYS AS (btrim(regexp_replace(lower(regexp_replace(translate("subject", 'أإآٱىة', 'اااايه'), '[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]', '', 'g')), '\s+', ' ', 'g'))) STORED NOT NULL,
	"summary" text,
	"sender_department_id" integer,
	"receiver" text,
	"received_date" date,
	"document_date" date,
	"security_level_id" integer,
	"security_rank" integer DEFAULT 0 NOT NULL,
	"priority_id" integer,
	"priority_rank" integer DEFAULT 0 NOT NULL,
	"department_id" integer,
	"recipient_department_id" integer,
	"medium_id" integer,
	"grouping" text,
	"archive_department_id" integer,
	"created_by" integer,
	"registered_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"registered_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer NOT NULL,
	"distribution_id" integer NOT NULL,
	"department_id" integer NOT NULL,
	"type" text NOT NULL,
	"employee_id" integer NOT NULL,
	"task_date" date,
	"notes" text,
	"state" text DEFAULT 'new' NOT NULL,
	"assigned_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_clearances" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"security_level_id" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "correspondence_settings" ADD CONSTRAINT "correspondence_settings_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_distributed_by_users_id_fk" FOREIGN KEY ("distributed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_counters" ADD CONSTRAINT "document_counters_codification_id_correspondence_settings_id_fk" FOREIGN KEY ("codification_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_follows" ADD CONSTRAINT "document_follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_follows" ADD CONSTRAINT "document_follows_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_relations" ADD CONSTRAINT "document_relations_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_relations" ADD CONSTRAINT "document_relations_related_id_documents_id_fk" FOREIGN KEY ("related_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_relations" ADD CONSTRAINT "document_relations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_codification_id_correspondence_settings_id_fk" FOREIGN KEY ("codification_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_sender_department_id_departments_id_fk" FOREIGN KEY ("sender_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_security_level_id_correspondence_settings_id_fk" FOREIGN KEY ("security_level_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_priority_id_correspondence_settings_id_fk" FOREIGN KEY ("priority_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_recipient_department_id_departments_id_fk" FOREIGN KEY ("recipient_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_medium_id_correspondence_settings_id_fk" FOREIGN KEY ("medium_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_archive_department_id_departments_id_fk" FOREIGN KEY ("archive_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_registered_by_users_id_fk" FOREIGN KEY ("registered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_distribution_id_distributions_id_fk" FOREIGN KEY ("distribution_id") REFERENCES "public"."distributions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_clearances" ADD CONSTRAINT "user_clearances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_clearances" ADD CONSTRAINT "user_clearances_security_level_id_correspondence_settings_id_fk" FOREIGN KEY ("security_level_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "correspondence_settings_name_ar_idx" ON "correspondence_settings" USING btree ("list",lower("name_ar"));--> statement-breakpoint
CREATE UNIQUE INDEX "correspondence_settings_name_en_idx" ON "correspondence_settings" USING btree ("list",lower("name_en"));--> statement-breakpoint
CREATE UNIQUE INDEX "correspondence_settings_department_idx" ON "correspondence_settings" USING btree ("list","department_id");--> statement-breakpoint
CREATE UNIQUE INDEX "correspondence_settings_prefix_idx" ON "correspondence_settings" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "correspondence_settings_list_idx" ON "correspondence_settings" USING btree ("list","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "distributions_document_department_idx" ON "distributions" USING btree ("document_id","department_id");--> statement-breakpoint
CREATE INDEX "distributions_box_idx" ON "distributions" USING btree ("department_id","registered_at" DESC NULLS LAST,"id" DESC NULLS LAST,"security_rank","type","document_id");--> statement-breakpoint
CREATE INDEX "document_attachments_document_idx" ON "document_attachments" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_events_document_idx" ON "document_events" USING btree ("document_id","id");--> statement-breakpoint
CREATE INDEX "document_follows_document_idx" ON "document_follows" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_number_idx" ON "documents" USING btree ("codification_id","year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_doc_number_idx" ON "documents" USING btree ("doc_number");--> statement-breakpoint
CREATE INDEX "documents_registered_idx" ON "documents" USING btree ("direction","state","registered_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_archive_idx" ON "documents" USING btree ("archive_department_id","registered_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_creator_idx" ON "documents" USING btree ("created_by","state","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_subject_trgm_idx" ON "documents" USING gin ("subject_search" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tasks_employee_idx" ON "tasks" USING btree ("employee_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tasks_department_idx" ON "tasks" USING btree ("department_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tasks_document_idx" ON "tasks" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "tasks_distribution_idx" ON "tasks" USING btree ("distribution_id");