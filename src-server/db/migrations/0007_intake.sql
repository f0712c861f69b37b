CREATE TABLE "intake_receipts" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"sha256" text NOT NULL,
	"document_id" integer NOT NULL,
	"attachment_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intake_receipts_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "intake_receipts" ADD CONSTRAINT "intake_receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_receipts" ADD CONSTRAINT "intake_receipts_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_receipts" ADD CONSTRAINT "intake_receipts_attachment_id_document_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."document_attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_attachments_sha256_idx" ON "document_attachments" USING btree ("sha256");