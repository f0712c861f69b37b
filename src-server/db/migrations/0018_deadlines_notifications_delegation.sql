CREATE TABLE "delegations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delegations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"delegator_id" integer NOT NULL,
	"delegate_id" integer NOT NULL,
	"scope" text NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"reason" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" integer,
	CONSTRAINT "delegations_scope_check" CHECK ("delegations"."scope" in ('approvals', 'tasks', 'both')),
	CONSTRAINT "delegations_range_check" CHECK ("delegations"."starts_on" <= "delegations"."ends_on"),
	CONSTRAINT "delegations_not_self_check" CHECK ("delegations"."delegator_id" <> "delegations"."delegate_id")
);
--> statement-breakpoint
CREATE TABLE "holidays" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "holidays_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name_ar" text NOT NULL,
	"name_en" text NOT NULL,
	"calendar" text DEFAULT 'gregorian' NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"repeats" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "holidays_calendar_check" CHECK ("holidays"."calendar" in ('gregorian', 'hijri')),
	CONSTRAINT "holidays_range_check" CHECK ("holidays"."starts_on" <= "holidays"."ends_on")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"document_id" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"on_behalf_of" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"emailed_at" timestamp with time zone,
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('distributed', 'taskAssigned', 'approvalTurn', 'changesRequested', 'approved', 'dueSoon', 'overdue', 'escalated', 'dispatched', 'delegated'))
);
--> statement-breakpoint
ALTER TABLE "approval_members" ADD COLUMN "due_on" date;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reply_due_on" date;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reply_done_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reply_done_by" integer;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reply_done_note" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "reply_document_id" integer;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD COLUMN "deadlines" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notification_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegator_id_users_id_fk" FOREIGN KEY ("delegator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_delegate_id_users_id_fk" FOREIGN KEY ("delegate_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delegations" ADD CONSTRAINT "delegations_ended_by_users_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_on_behalf_of_users_id_fk" FOREIGN KEY ("on_behalf_of") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delegations_delegate_idx" ON "delegations" USING btree ("delegate_id","ends_on");--> statement-breakpoint
CREATE INDEX "delegations_delegator_idx" ON "delegations" USING btree ("delegator_id","ends_on");--> statement-breakpoint
CREATE INDEX "holidays_starts_idx" ON "holidays" USING btree ("starts_on");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_dedupe_idx" ON "notifications" USING btree ("user_id","dedupe_key") WHERE "notifications"."dedupe_key" is not null;--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id","id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_reply_done_by_users_id_fk" FOREIGN KEY ("reply_done_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_reply_document_id_documents_id_fk" FOREIGN KEY ("reply_document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_reply_due_idx" ON "documents" USING btree ("reply_due_on") WHERE "documents"."reply_due_on" is not null and "documents"."reply_done_at" is null;--> statement-breakpoint
CREATE INDEX "tasks_due_idx" ON "tasks" USING btree ("task_date") WHERE "tasks"."task_date" is not null and "tasks"."state" <> 'completed';