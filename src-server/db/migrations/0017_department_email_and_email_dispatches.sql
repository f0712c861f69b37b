CREATE TABLE "email_dispatches" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_dispatches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer NOT NULL,
	"department_id" integer,
	"address" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"message_id" text,
	"error" text,
	"error_code" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "email_dispatches_state_check" CHECK ("email_dispatches"."state" in ('queued', 'sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "departments" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "email_dispatches" ADD CONSTRAINT "email_dispatches_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_dispatches" ADD CONSTRAINT "email_dispatches_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_dispatches" ADD CONSTRAINT "email_dispatches_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_dispatches_document_idx" ON "email_dispatches" USING btree ("document_id");