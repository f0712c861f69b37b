CREATE TABLE "dashboard_tallies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "dashboard_tallies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"month" date NOT NULL,
	"archive" integer NOT NULL,
	"direction" text NOT NULL,
	"department" integer NOT NULL,
	"codification" integer NOT NULL,
	"security_rank" integer NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "distributions" ADD COLUMN "tasked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "distributed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "dashboard_tallies_key_idx" ON "dashboard_tallies" USING btree ("month","archive","direction","department","codification","security_rank","n");--> statement-breakpoint
CREATE INDEX "distributions_unassigned_idx" ON "distributions" USING btree ("department_id","document_id") WHERE "distributions"."type" = 'forAction' and "distributions"."completed_at" is null and not "distributions"."tasked";--> statement-breakpoint
CREATE INDEX "documents_undistributed_idx" ON "documents" USING btree ("archive_department_id","security_rank") WHERE "documents"."direction" = 'in' and "documents"."state" = 'registered' and not "documents"."distributed";--> statement-breakpoint
CREATE INDEX "documents_undispatched_idx" ON "documents" USING btree ("archive_department_id","security_rank") WHERE "documents"."direction" = 'out' and "documents"."state" = 'approved' and "documents"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "documents_reply_done_idx" ON "documents" USING btree ("reply_done_at") WHERE "documents"."reply_document_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_creator_archive_idx" ON "documents" USING btree ("created_by","archive_department_id") WHERE "documents"."state" in ('registered', 'approved');--> statement-breakpoint
CREATE INDEX "tasks_open_idx" ON "tasks" USING btree ("task_date","department_id","employee_id","state","document_id") WHERE "tasks"."state" <> 'completed';--> statement-breakpoint
CREATE INDEX "tasks_completed_idx" ON "tasks" USING btree ("completed_at","department_id") WHERE "tasks"."state" = 'completed';--> statement-breakpoint
-- distributions.tasked: whether any task was given on the distribution, kept by statement triggers on tasks
-- in the writing transaction (the manager's dashboard's action items waiting for a task).
CREATE FUNCTION tasks_mark_tasked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE distributions x SET tasked = true
      WHERE x.id IN (SELECT DISTINCT distribution_id FROM new_rows) AND NOT x.tasked;
  ELSE
    UPDATE distributions x SET tasked = false
      WHERE x.id IN (SELECT DISTINCT distribution_id FROM old_rows) AND x.tasked
        AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.distribution_id = x.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tasks_mark_inserted AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tasks_mark_tasked();
--> statement-breakpoint
CREATE TRIGGER tasks_mark_deleted AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tasks_mark_tasked();
--> statement-breakpoint
-- documents.distributed: whether any distribution of the document exists, kept by statement triggers on
-- distributions in the writing transaction (the archive dashboard's "awaiting distribution").
CREATE FUNCTION distributions_mark_distributed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE documents d SET distributed = true
      WHERE d.id IN (SELECT DISTINCT document_id FROM new_rows) AND NOT d.distributed;
  ELSE
    UPDATE documents d SET distributed = false
      WHERE d.id IN (SELECT DISTINCT document_id FROM old_rows) AND d.distributed
        AND NOT EXISTS (SELECT 1 FROM distributions x WHERE x.document_id = d.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER distributions_mark_inserted AFTER INSERT ON distributions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION distributions_mark_distributed();
--> statement-breakpoint
CREATE TRIGGER distributions_mark_deleted AFTER DELETE ON distributions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION distributions_mark_distributed();
--> statement-breakpoint
-- The dashboards' tallies (schema.ts, dashboardTallies): as box_tallies (migration 0013), each statement's
-- rows leaving a key count -1, arriving +1, added into a row of the key this transaction may lock at once
-- (FOR UPDATE SKIP LOCKED, folding the key's other unlocked rows), else into a new row: writers never wait
-- on each other here. Readers sum a key's rows.
CREATE FUNCTION dashboard_tally_add(p_month date, p_archive integer, p_direction text, p_department integer,
  p_codification integer, p_rank integer, p_n integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  main bigint;
BEGIN
  SELECT t.id INTO main FROM dashboard_tallies t
    WHERE t.month = p_month AND t.archive = p_archive AND t.direction = p_direction
      AND t.department = p_department AND t.codification = p_codification AND t.security_rank = p_rank
    ORDER BY t.id LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF main IS NULL THEN
    INSERT INTO dashboard_tallies (month, archive, direction, department, codification, security_rank, n)
      VALUES (p_month, p_archive, p_direction, p_department, p_codification, p_rank, p_n);
  ELSE
    WITH folded AS (
      DELETE FROM dashboard_tallies WHERE id IN (
        SELECT t.id FROM dashboard_tallies t
          WHERE t.month = p_month AND t.archive = p_archive AND t.direction = p_direction
            AND t.department = p_department AND t.codification = p_codification AND t.security_rank = p_rank
            AND t.id <> main
          FOR UPDATE SKIP LOCKED)
      RETURNING n)
    UPDATE dashboard_tallies SET n = dashboard_tallies.n + p_n + coalesce((SELECT sum(folded.n) FROM folded), 0)::integer
      WHERE id = main;
  END IF;
END $$;
--> statement-breakpoint
-- A document's key: filed documents only (registered incoming, approved outgoing and memos), by the UTC
-- month of registered_at (the boxes' days are UTC days), the archive office holding it, its department
-- (the recipient of an incoming letter, else its own) and codification; 0 stands for none.
CREATE FUNCTION dashboard_tally_keys(p_direction text, p_state text, p_archive integer, p_registered timestamptz,
  p_recipient integer, p_department integer, p_codification integer, p_rank integer)
  RETURNS TABLE (month date, archive integer, direction text, department integer, codification integer,
    security_rank integer)
  LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', p_registered AT TIME ZONE 'UTC')::date, coalesce(p_archive, 0), p_direction,
    coalesce(CASE WHEN p_direction = 'in' THEN p_recipient ELSE p_department END, 0), coalesce(p_codification, 0),
    p_rank
  WHERE p_state IN ('registered', 'approved') AND p_registered IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION documents_dashboard_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT k.*, count(*)::integer AS n FROM new_rows c
        CROSS JOIN LATERAL dashboard_tally_keys(c.direction, c.state, c.archive_department_id, c.registered_at,
          c.recipient_department_id, c.department_id, c.codification_id, c.security_rank) k
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
      PERFORM dashboard_tally_add(r.month, r.archive, r.direction, r.department, r.codification, r.security_rank, r.n);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT k.*, -count(*)::integer AS n FROM old_rows c
        CROSS JOIN LATERAL dashboard_tally_keys(c.direction, c.state, c.archive_department_id, c.registered_at,
          c.recipient_department_id, c.department_id, c.codification_id, c.security_rank) k
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
      PERFORM dashboard_tally_add(r.month, r.archive, r.direction, r.department, r.codification, r.security_rank, r.n);
    END LOOP;
  ELSE
    FOR r IN SELECT k.*, sum(c.n)::integer AS n FROM (
          SELECT -1 AS n, o.direction, o.state, o.archive_department_id, o.registered_at, o.recipient_department_id,
            o.department_id, o.codification_id, o.security_rank FROM old_rows o
          UNION ALL
          SELECT 1, w.direction, w.state, w.archive_department_id, w.registered_at, w.recipient_department_id,
            w.department_id, w.codification_id, w.security_rank FROM new_rows w) c
        CROSS JOIN LATERAL dashboard_tally_keys(c.direction, c.state, c.archive_department_id, c.registered_at,
          c.recipient_department_id, c.department_id, c.codification_id, c.security_rank) k
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(c.n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
      PERFORM dashboard_tally_add(r.month, r.archive, r.direction, r.department, r.codification, r.security_rank, r.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_dashboard_tally_inserted AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_dashboard_tally();
--> statement-breakpoint
CREATE TRIGGER documents_dashboard_tally_updated AFTER UPDATE ON documents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION documents_dashboard_tally();
--> statement-breakpoint
CREATE TRIGGER documents_dashboard_tally_deleted AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_dashboard_tally();
--> statement-breakpoint
-- Recomputes documents.distributed, distributions.tasked and every dashboard tally (after a bulk load that ran with triggers off,
-- e.g. the benchmarks' generators); writers of both tables wait meanwhile.
CREATE FUNCTION dashboard_tallies_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE documents, distributions, tasks IN SHARE MODE;
  UPDATE distributions x SET tasked = y.has
    FROM (SELECT c.id, EXISTS (SELECT 1 FROM tasks t WHERE t.distribution_id = c.id) AS has
            FROM distributions c) y
    WHERE y.id = x.id AND x.tasked IS DISTINCT FROM y.has;
  UPDATE documents d SET distributed = x.has
    FROM (SELECT c.id, EXISTS (SELECT 1 FROM distributions v WHERE v.document_id = c.id) AS has
            FROM documents c) x
    WHERE x.id = d.id AND d.distributed IS DISTINCT FROM x.has;
  DELETE FROM dashboard_tallies;
  INSERT INTO dashboard_tallies (month, archive, direction, department, codification, security_rank, n)
    SELECT k.*, count(*)::integer FROM documents c
      CROSS JOIN LATERAL dashboard_tally_keys(c.direction, c.state, c.archive_department_id, c.registered_at,
        c.recipient_department_id, c.department_id, c.codification_id, c.security_rank) k
      GROUP BY 1, 2, 3, 4, 5, 6;
END $$;
--> statement-breakpoint
SELECT dashboard_tallies_rebuild();
