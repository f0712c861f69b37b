DROP INDEX "distributions_box_idx";--> statement-breakpoint
DROP INDEX "documents_registered_idx";--> statement-breakpoint
CREATE INDEX "distributions_box_idx" ON "distributions" USING btree ("department_id","registered_at" DESC NULLS LAST,"id" DESC NULLS LAST,"security_rank","type","document_id","completed_at");--> statement-breakpoint
CREATE INDEX "documents_registered_idx" ON "documents" USING btree ("direction","state","registered_at" DESC NULLS LAST,"id" DESC NULLS LAST,"archive_department_id","created_by","security_rank","completed_at");