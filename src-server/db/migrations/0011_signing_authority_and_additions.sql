CREATE TABLE "signing_authorities" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signing_authorities_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"department_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_by" integer,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "document_attachments" ADD COLUMN "kind" text DEFAULT 'content' NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_authorities" ADD CONSTRAINT "signing_authorities_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_authorities" ADD CONSTRAINT "signing_authorities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_authorities" ADD CONSTRAINT "signing_authorities_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_authorities" ADD CONSTRAINT "signing_authorities_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signing_authorities_in_force_idx" ON "signing_authorities" USING btree ("department_id","user_id") WHERE "signing_authorities"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "signing_authorities_user_idx" ON "signing_authorities" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "document_attachments" ADD CONSTRAINT "document_attachments_kind_check" CHECK ("document_attachments"."kind" in ('content', 'signedCopy', 'deliveryReceipt', 'other'));--> statement-breakpoint
-- Files attached to an approved letter or memo after its approval were taken as its content until now:
-- they become additions after approval, of no particular kind ('other').
UPDATE "document_attachments" a SET "kind" = 'other' FROM "documents" d
  WHERE d."id" = a."document_id" AND d."state" = 'approved' AND d."approved_at" IS NOT NULL
    AND a."uploaded_at" > d."approved_at";
