CREATE TABLE "task_tallies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_tallies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"department" integer NOT NULL,
	"employee" integer NOT NULL,
	"state" text NOT NULL,
	"dated" boolean NOT NULL,
	"archive" integer NOT NULL,
	"security_rank" integer NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "tasks_open_idx";--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "document_archive" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "document_rank" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- tasks.document_archive and document_rank: the task's document's archive office (0: none) and security
-- rank, copied when the task is made and moved when the document's change, so the open work can be
-- counted per office and rank without reading the documents (the dashboards, issue 30).
CREATE FUNCTION tasks_document_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT coalesce(d.archive_department_id, 0), d.security_rank INTO NEW.document_archive, NEW.document_rank
    FROM documents d WHERE d.id = NEW.document_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER tasks_document_keys BEFORE INSERT OR UPDATE OF document_id ON tasks
  FOR EACH ROW EXECUTE FUNCTION tasks_document_keys();
--> statement-breakpoint
CREATE FUNCTION documents_move_task_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tasks t SET document_archive = coalesce(w.archive_department_id, 0), document_rank = w.security_rank
    FROM new_rows w JOIN old_rows o ON o.id = w.id
    WHERE t.document_id = w.id
      AND (o.archive_department_id IS DISTINCT FROM w.archive_department_id OR o.security_rank <> w.security_rank)
      AND (t.document_archive <> coalesce(w.archive_department_id, 0) OR t.document_rank <> w.security_rank);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_move_task_keys AFTER UPDATE ON documents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION documents_move_task_keys();
--> statement-breakpoint
-- The open work tallies (schema.ts, taskTallies): open tasks (state other than completed) per department,
-- holder, state, whether dated, and their document's office and rank; kept as dashboard_tallies are
-- (migration 0021): a statement's rows leaving a key count -1, arriving +1, added into a row of the key
-- this transaction may lock at once (FOR UPDATE SKIP LOCKED, folding the key's other unlocked rows), else
-- into a new row. Readers sum a key's rows.
CREATE FUNCTION task_tally_add(p_department integer, p_employee integer, p_state text, p_dated boolean,
  p_archive integer, p_rank integer, p_n integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  main bigint;
BEGIN
  SELECT t.id INTO main FROM task_tallies t
    WHERE t.department = p_department AND t.employee = p_employee AND t.state = p_state AND t.dated = p_dated
      AND t.archive = p_archive AND t.security_rank = p_rank
    ORDER BY t.id LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF main IS NULL THEN
    INSERT INTO task_tallies (department, employee, state, dated, archive, security_rank, n)
      VALUES (p_department, p_employee, p_state, p_dated, p_archive, p_rank, p_n);
  ELSE
    WITH folded AS (
      DELETE FROM task_tallies WHERE id IN (
        SELECT t.id FROM task_tallies t
          WHERE t.department = p_department AND t.employee = p_employee AND t.state = p_state
            AND t.dated = p_dated AND t.archive = p_archive AND t.security_rank = p_rank AND t.id <> main
          FOR UPDATE SKIP LOCKED)
      RETURNING n)
    UPDATE task_tallies SET n = task_tallies.n + p_n + coalesce((SELECT sum(folded.n) FROM folded), 0)::integer
      WHERE id = main;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION tasks_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT c.department_id, c.employee_id, c.state, c.task_date IS NOT NULL AS dated, c.document_archive,
          c.document_rank, count(*)::integer AS n
        FROM new_rows c WHERE c.state <> 'completed'
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
      PERFORM task_tally_add(r.department_id, r.employee_id, r.state, r.dated, r.document_archive, r.document_rank, r.n);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT c.department_id, c.employee_id, c.state, c.task_date IS NOT NULL AS dated, c.document_archive,
          c.document_rank, -count(*)::integer AS n
        FROM old_rows c WHERE c.state <> 'completed'
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
      PERFORM task_tally_add(r.department_id, r.employee_id, r.state, r.dated, r.document_archive, r.document_rank, r.n);
    END LOOP;
  ELSE
    FOR r IN SELECT c.department_id, c.employee_id, c.state, c.dated, c.document_archive, c.document_rank,
          sum(c.n)::integer AS n
        FROM (SELECT -1 AS n, o.department_id, o.employee_id, o.state, o.task_date IS NOT NULL AS dated,
                o.document_archive, o.document_rank FROM old_rows o WHERE o.state <> 'completed'
              UNION ALL
              SELECT 1, w.department_id, w.employee_id, w.state, w.task_date IS NOT NULL, w.document_archive,
                w.document_rank FROM new_rows w WHERE w.state <> 'completed') c
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(c.n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
    LOOP
      PERFORM task_tally_add(r.department_id, r.employee_id, r.state, r.dated, r.document_archive, r.document_rank, r.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tasks_tally_inserted AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tasks_tally();
--> statement-breakpoint
CREATE TRIGGER tasks_tally_updated AFTER UPDATE ON tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tasks_tally();
--> statement-breakpoint
CREATE TRIGGER tasks_tally_deleted AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tasks_tally();
--> statement-breakpoint
-- Recomputes the tasks' copies of their documents' office and rank and the open work tallies (after a bulk
-- load that ran with triggers off); writers of documents and tasks wait meanwhile.
CREATE FUNCTION task_tallies_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE documents, tasks IN SHARE MODE;
  UPDATE tasks t SET document_archive = coalesce(d.archive_department_id, 0), document_rank = d.security_rank
    FROM documents d
    WHERE d.id = t.document_id
      AND (t.document_archive <> coalesce(d.archive_department_id, 0) OR t.document_rank <> d.security_rank);
  DELETE FROM task_tallies;
  INSERT INTO task_tallies (department, employee, state, dated, archive, security_rank, n)
    SELECT t.department_id, t.employee_id, t.state, t.task_date IS NOT NULL, t.document_archive, t.document_rank,
        count(*)::integer
      FROM tasks t WHERE t.state <> 'completed'
      GROUP BY 1, 2, 3, 4, 5, 6;
END $$;
--> statement-breakpoint
-- dashboard_tallies_rebuild() (migration 0021), which the benchmarks call after a bulk load, now recomputes
-- the open work tallies too.
CREATE OR REPLACE FUNCTION dashboard_tallies_rebuild() RETURNS void LANGUAGE plpgsql AS $$
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
  PERFORM task_tallies_rebuild();
END $$;
--> statement-breakpoint
SELECT task_tallies_rebuild();--> statement-breakpoint
CREATE INDEX "documents_circuit_idx" ON "documents" USING btree ("department_id","state","direction","id") WHERE "documents"."state" in ('approving', 'changesRequested');--> statement-breakpoint
CREATE INDEX "documents_date_idx" ON "documents" USING btree (coalesce("registered_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "documents_volume_idx" ON "documents" USING btree ("registered_at","direction","archive_department_id","security_rank","department_id","recipient_department_id","codification_id") WHERE "documents"."state" in ('registered', 'approved');--> statement-breakpoint
CREATE INDEX "task_tallies_key_idx" ON "task_tallies" USING btree ("department","employee","state","dated","archive","security_rank","n");--> statement-breakpoint
CREATE INDEX "tasks_open_document_idx" ON "tasks" USING btree ("document_id","task_date","department_id","employee_id") WHERE "tasks"."state" <> 'completed';--> statement-breakpoint
CREATE INDEX "tasks_open_idx" ON "tasks" USING btree ("task_date","department_id","employee_id","state","document_archive","document_rank","document_id") WHERE "tasks"."state" <> 'completed';
--> statement-breakpoint
-- The Backups page (issue 29) gained delete, which base data (never overwriting a page) would not give a
-- database made before.
UPDATE "pages" SET "available_permissions" = "available_permissions" || '{delete}'::text[]
  WHERE "path" = '/auth/backups' AND NOT ('delete' = ANY ("available_permissions"));