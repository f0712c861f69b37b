CREATE TABLE "approval_members" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "approval_members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"user_id" integer NOT NULL,
	"employee_id" integer,
	"pending" boolean DEFAULT false NOT NULL,
	"activated_at" timestamp with time zone,
	"decision" text,
	"comment" text,
	"decided_at" timestamp with time zone,
	"decided_version" integer,
	"direction" text NOT NULL,
	"security_rank" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "approval_members_kind_check" CHECK ("approval_members"."kind" in ('opinion', 'sign')),
	CONSTRAINT "approval_members_decision_check" CHECK ("approval_members"."decision" is null or "approval_members"."decision" in ('approved', 'rejected', 'changesRequested')),
	CONSTRAINT "approval_members_position_check" CHECK ("approval_members"."position" >= 1)
);
--> statement-breakpoint
CREATE TABLE "approval_templates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "approval_templates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"department_id" integer NOT NULL,
	"direction" text NOT NULL,
	"steps" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_templates_direction_check" CHECK ("approval_templates"."direction" in ('in', 'out', 'internal', 'memo'))
);
--> statement-breakpoint
CREATE TABLE "document_recipients" (
	"document_id" integer NOT NULL,
	"department_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "document_recipients_document_id_department_id_pk" PRIMARY KEY("document_id","department_id")
);
--> statement-breakpoint
DROP INDEX "distributions_box_idx";--> statement-breakpoint
ALTER TABLE "distributions" ADD COLUMN "direction" text DEFAULT 'in' NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "submitted_version" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "current_step" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "dispatched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "dispatched_by" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "dispatch_medium_id" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "dispatch_date" date;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "delivered" boolean;--> statement-breakpoint
ALTER TABLE "approval_members" ADD CONSTRAINT "approval_members_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_members" ADD CONSTRAINT "approval_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_members" ADD CONSTRAINT "approval_members_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_templates" ADD CONSTRAINT "approval_templates_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_templates" ADD CONSTRAINT "approval_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_recipients" ADD CONSTRAINT "document_recipients_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_recipients" ADD CONSTRAINT "document_recipients_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_members_step_idx" ON "approval_members" USING btree ("document_id","position","user_id");--> statement-breakpoint
CREATE INDEX "approval_members_user_idx" ON "approval_members" USING btree ("user_id","document_id");--> statement-breakpoint
CREATE INDEX "approval_members_pending_idx" ON "approval_members" USING btree ("user_id","direction","activated_at" DESC NULLS LAST,"id" DESC NULLS LAST,"security_rank","document_id") WHERE "approval_members"."pending";--> statement-breakpoint
CREATE UNIQUE INDEX "approval_templates_department_idx" ON "approval_templates" USING btree ("department_id","direction");--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_dispatched_by_users_id_fk" FOREIGN KEY ("dispatched_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_dispatch_medium_id_correspondence_settings_id_fk" FOREIGN KEY ("dispatch_medium_id") REFERENCES "public"."correspondence_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_author_circuit_idx" ON "documents" USING btree ("created_by","direction","state","submitted_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "distributions_box_idx" ON "distributions" USING btree ("department_id","registered_at" DESC NULLS LAST,"id" DESC NULLS LAST,"security_rank","type","document_id","completed_at","direction");--> statement-breakpoint
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_type_check" CHECK ("distributions"."type" in ('forAction', 'forKnowledge'));--> statement-breakpoint
ALTER TABLE "distributions" ADD CONSTRAINT "distributions_direction_check" CHECK ("distributions"."direction" in ('in', 'out', 'internal', 'memo'));--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_direction_check" CHECK ("documents"."direction" in ('in', 'out', 'internal', 'memo'));--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_state_check" CHECK ("documents"."state" in ('draft', 'registered', 'approving', 'changesRequested', 'rejected', 'approved'));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_state_check" CHECK ("tasks"."state" in ('new', 'inProgress', 'completed'));--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_type_check" CHECK ("tasks"."type" in ('forAction', 'forKnowledge'));--> statement-breakpoint
-- Hand-written: existing distributions take their document's direction.
UPDATE "distributions" x SET "direction" = d."direction" FROM "documents" d WHERE d."id" = x."document_id" AND x."direction" <> d."direction";
