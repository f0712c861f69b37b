CREATE TABLE "final_letters" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"source_attachment_id" integer,
	"sha256" text,
	"size" bigint,
	"pages" integer,
	"signed" boolean DEFAULT false NOT NULL,
	"certificate" jsonb,
	"error" text,
	"made_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" integer,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "final_letters_state_check" CHECK ("final_letters"."state" in ('pending', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "organisation_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"stamp_corner" text DEFAULT 'top-start' NOT NULL,
	"stamp_digits" text DEFAULT 'arabic-indic' NOT NULL,
	"stamp_heading_ar" text,
	"stamp_heading_en" text,
	"verify_base_url" text,
	"smtp" jsonb,
	"smtp_password_sealed" text,
	"certificate_sealed" text,
	"certificate_password_sealed" text,
	"certificate" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "organisation_settings_one_row" CHECK ("organisation_settings"."id" = 1),
	CONSTRAINT "organisation_settings_corner_check" CHECK ("organisation_settings"."stamp_corner" in ('top-start', 'top-end', 'bottom-start', 'bottom-end')),
	CONSTRAINT "organisation_settings_digits_check" CHECK ("organisation_settings"."stamp_digits" in ('arabic-indic', 'western'))
);
--> statement-breakpoint
ALTER TABLE "final_letters" ADD CONSTRAINT "final_letters_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_letters" ADD CONSTRAINT "final_letters_source_attachment_id_document_attachments_id_fk" FOREIGN KEY ("source_attachment_id") REFERENCES "public"."document_attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "final_letters" ADD CONSTRAINT "final_letters_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_settings" ADD CONSTRAINT "organisation_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "final_letters_token_idx" ON "final_letters" USING btree ("token");--> statement-breakpoint
-- The one row of the settings, with their defaults.
INSERT INTO "organisation_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
