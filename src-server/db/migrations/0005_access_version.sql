CREATE TABLE "access_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL,
	CONSTRAINT "access_version_one_row" CHECK ("access_version"."id" = 1)
);
--> statement-breakpoint
-- Hand-written below (drizzle-kit generates tables only): the one row, and the triggers that raise it.
INSERT INTO "access_version" ("id", "version") VALUES (1, 1) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "bump_access_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "access_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Row triggers deferred to commit: the counter is raised in the changing transaction (so a reader never
-- sees the new counter with the old rows), its row is locked only for the instant before the commit (no
-- lock-order deadlocks between concurrent editors), and a statement that changes nothing raises nothing.
CREATE CONSTRAINT TRIGGER "pages_access_version" AFTER INSERT OR UPDATE OR DELETE ON "pages" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_access_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "role_page_permissions_access_version" AFTER INSERT OR UPDATE OR DELETE ON "role_page_permissions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_access_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "roles_access_version" AFTER INSERT OR UPDATE OR DELETE ON "roles" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_access_version"();--> statement-breakpoint
-- TRUNCATE has no row triggers: a statement trigger.
CREATE TRIGGER "pages_access_version_truncate" AFTER TRUNCATE ON "pages" FOR EACH STATEMENT EXECUTE FUNCTION "bump_access_version"();--> statement-breakpoint
CREATE TRIGGER "role_page_permissions_access_version_truncate" AFTER TRUNCATE ON "role_page_permissions" FOR EACH STATEMENT EXECUTE FUNCTION "bump_access_version"();--> statement-breakpoint
CREATE TRIGGER "roles_access_version_truncate" AFTER TRUNCATE ON "roles" FOR EACH STATEMENT EXECUTE FUNCTION "bump_access_version"();
