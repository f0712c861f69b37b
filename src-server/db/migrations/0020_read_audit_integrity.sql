CREATE TABLE "integrity_failures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "integrity_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"sha256" text NOT NULL,
	"problem" text NOT NULL,
	"found_sha256" text,
	"store" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "integrity_failures_problem_check" CHECK ("integrity_failures"."problem" in ('changed', 'missing'))
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
CREATE UNIQUE INDEX "integrity_failures_open_idx" ON "integrity_failures" USING btree ("sha256") WHERE "integrity_failures"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_read_once_idx" ON "audit_log" USING btree ("action","actor_id","target_id",("details" ->> 'read')) WHERE ("audit_log"."details" ->> 'read') is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('distributed', 'taskAssigned', 'approvalTurn', 'changesRequested', 'approved', 'dueSoon', 'overdue', 'escalated', 'dispatched', 'delegated', 'integrityFailed'));