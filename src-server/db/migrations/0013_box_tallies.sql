CREATE TABLE "box_tallies" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "box_tallies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"arm" text NOT NULL,
	"owner" integer NOT NULL,
	"holder" integer NOT NULL,
	"direction" text NOT NULL,
	"state" text NOT NULL,
	"day" date NOT NULL,
	"security_rank" integer NOT NULL,
	"done" boolean NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "box_tallies_arm_check" CHECK ("box_tallies"."arm" in ('archive', 'creator', 'received'))
);
--> statement-breakpoint
CREATE INDEX "box_tallies_key_idx" ON "box_tallies" USING btree ("arm","direction","state","owner","holder","day","security_rank","done","n");--> statement-breakpoint
-- The tallies of the big boxes (schema.ts, boxTallies) are kept by the database itself, in the transaction
-- that writes documents or distributions, by statement triggers: each statement's rows leaving a key count
-- -1, arriving +1. A key's change goes into a row of that key this transaction may lock at once (FOR UPDATE
-- SKIP LOCKED), folding in the key's other unlocked rows; when every row of the key is held by another
-- writer, it goes into a new row instead of waiting — so writers never wait on each other here, and two
-- transactions touching keys in different orders cannot deadlock. Readers sum a key's rows.
CREATE FUNCTION box_tally_add(p_arm text, p_owner integer, p_holder integer, p_direction text, p_state text,
  p_day date, p_rank integer, p_done boolean, p_n integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  main bigint;
BEGIN
  SELECT t.id INTO main FROM box_tallies t
    WHERE t.arm = p_arm AND t.direction = p_direction AND t.state = p_state AND t.owner = p_owner
      AND t.holder = p_holder AND t.day = p_day AND t.security_rank = p_rank AND t.done = p_done
    ORDER BY t.id LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF main IS NULL THEN
    INSERT INTO box_tallies (arm, owner, holder, direction, state, day, security_rank, done, n)
      VALUES (p_arm, p_owner, p_holder, p_direction, p_state, p_day, p_rank, p_done, p_n);
  ELSE
    WITH folded AS (
      DELETE FROM box_tallies WHERE id IN (
        SELECT t.id FROM box_tallies t
          WHERE t.arm = p_arm AND t.direction = p_direction AND t.state = p_state AND t.owner = p_owner
            AND t.holder = p_holder AND t.day = p_day AND t.security_rank = p_rank AND t.done = p_done
            AND t.id <> main
          FOR UPDATE SKIP LOCKED)
      RETURNING n)
    UPDATE box_tallies SET n = box_tallies.n + p_n + coalesce((SELECT sum(folded.n) FROM folded), 0)::integer
      WHERE id = main;
  END IF;
END $$;
--> statement-breakpoint
-- A filed document's keys: by the archive office holding it, and by its creator (with that archive office
-- as holder); its day is the UTC day of registered_at (the boxes' box date); done is what the boxes call
-- done: dispatched for outgoing letters, completed for the rest. Drafts and documents in a circuit have none.
CREATE FUNCTION box_tally_document_keys(p_direction text, p_state text, p_archive integer, p_creator integer,
  p_registered timestamptz, p_rank integer, p_completed timestamptz, p_dispatched timestamptz)
  RETURNS TABLE (arm text, owner integer, holder integer, direction text, state text, day date,
    security_rank integer, done boolean)
  LANGUAGE sql IMMUTABLE AS $$
  SELECT v.arm, v.owner, v.holder, p_direction, p_state, (p_registered AT TIME ZONE 'UTC')::date, p_rank,
    CASE WHEN p_direction = 'out' THEN p_dispatched IS NOT NULL ELSE p_completed IS NOT NULL END
  FROM (VALUES ('archive', coalesce(p_archive, 0), 0),
               ('creator', coalesce(p_creator, 0), coalesce(p_archive, 0))) v(arm, owner, holder)
  WHERE p_state IN ('registered', 'approved') AND p_registered IS NOT NULL
$$;
--> statement-breakpoint
-- A distribution's key: by its receiving department (state '': a distribution has none of its own).
CREATE FUNCTION box_tally_distribution_keys(p_department integer, p_direction text, p_registered timestamptz,
  p_rank integer, p_completed timestamptz)
  RETURNS TABLE (arm text, owner integer, holder integer, direction text, state text, day date,
    security_rank integer, done boolean)
  LANGUAGE sql IMMUTABLE AS $$
  SELECT 'received', p_department, 0, p_direction, '', (p_registered AT TIME ZONE 'UTC')::date, p_rank,
    p_completed IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION documents_box_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT k.*, count(*)::integer AS n FROM new_rows c
        CROSS JOIN LATERAL box_tally_document_keys(c.direction, c.state, c.archive_department_id, c.created_by,
          c.registered_at, c.security_rank, c.completed_at, c.dispatched_at) k
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    LOOP
      PERFORM box_tally_add(r.arm, r.owner, r.holder, r.direction, r.state, r.day, r.security_rank, r.done, r.n);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT k.*, -count(*)::integer AS n FROM old_rows c
        CROSS JOIN LATERAL box_tally_document_keys(c.direction, c.state, c.archive_department_id, c.created_by,
          c.registered_at, c.security_rank, c.completed_at, c.dispatched_at) k
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    LOOP
      PERFORM box_tally_add(r.arm, r.owner, r.holder, r.direction, r.state, r.day, r.security_rank, r.done, r.n);
    END LOOP;
  ELSE
    FOR r IN SELECT k.*, sum(c.n)::integer AS n FROM (
          SELECT -1 AS n, o.direction, o.state, o.archive_department_id, o.created_by, o.registered_at,
            o.security_rank, o.completed_at, o.dispatched_at FROM old_rows o
          UNION ALL
          SELECT 1, w.direction, w.state, w.archive_department_id, w.created_by, w.registered_at,
            w.security_rank, w.completed_at, w.dispatched_at FROM new_rows w) c
        CROSS JOIN LATERAL box_tally_document_keys(c.direction, c.state, c.archive_department_id, c.created_by,
          c.registered_at, c.security_rank, c.completed_at, c.dispatched_at) k
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(c.n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    LOOP
      PERFORM box_tally_add(r.arm, r.owner, r.holder, r.direction, r.state, r.day, r.security_rank, r.done, r.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION distributions_box_tally() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT k.*, count(*)::integer AS n FROM new_rows c
        CROSS JOIN LATERAL box_tally_distribution_keys(c.department_id, c.direction, c.registered_at,
          c.security_rank, c.completed_at) k
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    LOOP
      PERFORM box_tally_add(r.arm, r.owner, r.holder, r.direction, r.state, r.day, r.security_rank, r.done, r.n);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT k.*, -count(*)::integer AS n FROM old_rows c
        CROSS JOIN LATERAL box_tally_distribution_keys(c.department_id, c.direction, c.registered_at,
          c.security_rank, c.completed_at) k
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    LOOP
      PERFORM box_tally_add(r.arm, r.owner, r.holder, r.direction, r.state, r.day, r.security_rank, r.done, r.n);
    END LOOP;
  ELSE
    FOR r IN SELECT k.*, sum(c.n)::integer AS n FROM (
          SELECT -1 AS n, o.department_id, o.direction, o.registered_at, o.security_rank, o.completed_at
            FROM old_rows o
          UNION ALL
          SELECT 1, w.department_id, w.direction, w.registered_at, w.security_rank, w.completed_at
            FROM new_rows w) c
        CROSS JOIN LATERAL box_tally_distribution_keys(c.department_id, c.direction, c.registered_at,
          c.security_rank, c.completed_at) k
        GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(c.n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    LOOP
      PERFORM box_tally_add(r.arm, r.owner, r.holder, r.direction, r.state, r.day, r.security_rank, r.done, r.n);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER documents_box_tally_inserted AFTER INSERT ON documents REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_box_tally();
--> statement-breakpoint
CREATE TRIGGER documents_box_tally_updated AFTER UPDATE ON documents
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION documents_box_tally();
--> statement-breakpoint
CREATE TRIGGER documents_box_tally_deleted AFTER DELETE ON documents REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION documents_box_tally();
--> statement-breakpoint
CREATE TRIGGER distributions_box_tally_inserted AFTER INSERT ON distributions REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION distributions_box_tally();
--> statement-breakpoint
CREATE TRIGGER distributions_box_tally_updated AFTER UPDATE ON distributions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION distributions_box_tally();
--> statement-breakpoint
CREATE TRIGGER distributions_box_tally_deleted AFTER DELETE ON distributions REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION distributions_box_tally();
--> statement-breakpoint
-- Recomputes every tally from the documents and distributions (after a bulk load that ran with triggers
-- off, e.g. the benchmarks' generators); writers of both tables wait meanwhile.
CREATE FUNCTION box_tallies_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE documents, distributions IN SHARE MODE;
  DELETE FROM box_tallies;
  INSERT INTO box_tallies (arm, owner, holder, direction, state, day, security_rank, done, n)
    SELECT k.*, count(*)::integer FROM documents c
      CROSS JOIN LATERAL box_tally_document_keys(c.direction, c.state, c.archive_department_id, c.created_by,
        c.registered_at, c.security_rank, c.completed_at, c.dispatched_at) k
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    UNION ALL
    SELECT k.*, count(*)::integer FROM distributions c
      CROSS JOIN LATERAL box_tally_distribution_keys(c.department_id, c.direction, c.registered_at,
        c.security_rank, c.completed_at) k
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
END $$;
--> statement-breakpoint
SELECT box_tallies_rebuild();
