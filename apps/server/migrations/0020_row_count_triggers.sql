-- account_row_counts: each statement that adds or removes contacts or conversations, or closes or reopens
-- conversations, writes its signed deltas per account (statement-level triggers with transition tables:
-- one row per account and statement, whatever the number of rows). Readers sum an account's rows; a job
-- folds them (platform/db/rowCounts.ts). A contact's or conversation's account never changes.
CREATE FUNCTION account_row_counts_contacts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO account_row_counts (account_id, kind, n) SELECT account_id, 'contacts', count(*) FROM new_rows GROUP BY account_id;
  ELSE
    INSERT INTO account_row_counts (account_id, kind, n) SELECT account_id, 'contacts', -count(*) FROM old_rows GROUP BY account_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contacts_row_counts_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_row_counts_contacts();
--> statement-breakpoint
CREATE TRIGGER contacts_row_counts_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_row_counts_contacts();
--> statement-breakpoint
CREATE FUNCTION account_row_counts_conversations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO account_row_counts (account_id, kind, n)
      SELECT account_id, k.kind, sum(CASE WHEN k.kind = 'conversations' OR closed_at IS NOT NULL THEN 1 ELSE 0 END)
        FROM new_rows CROSS JOIN (VALUES ('conversations'), ('closedConversations')) AS k(kind)
       GROUP BY account_id, k.kind HAVING sum(CASE WHEN k.kind = 'conversations' OR closed_at IS NOT NULL THEN 1 ELSE 0 END) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO account_row_counts (account_id, kind, n)
      SELECT account_id, k.kind, -sum(CASE WHEN k.kind = 'conversations' OR closed_at IS NOT NULL THEN 1 ELSE 0 END)
        FROM old_rows CROSS JOIN (VALUES ('conversations'), ('closedConversations')) AS k(kind)
       GROUP BY account_id, k.kind HAVING sum(CASE WHEN k.kind = 'conversations' OR closed_at IS NOT NULL THEN 1 ELSE 0 END) <> 0;
  ELSE
    -- Most updates (a new last message) change no count and write nothing.
    INSERT INTO account_row_counts (account_id, kind, n)
      SELECT n.account_id, 'closedConversations', sum((n.closed_at IS NOT NULL)::int - (o.closed_at IS NOT NULL)::int)
        FROM new_rows n JOIN old_rows o ON o.id = n.id
       WHERE (n.closed_at IS NULL) <> (o.closed_at IS NULL)
       GROUP BY n.account_id HAVING sum((n.closed_at IS NOT NULL)::int - (o.closed_at IS NOT NULL)::int) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER conversations_row_counts_insert AFTER INSERT ON conversations REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_row_counts_conversations();
--> statement-breakpoint
CREATE TRIGGER conversations_row_counts_update AFTER UPDATE ON conversations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_row_counts_conversations();
--> statement-breakpoint
CREATE TRIGGER conversations_row_counts_delete AFTER DELETE ON conversations REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION account_row_counts_conversations();
--> statement-breakpoint
-- The rows already there (in this migration's transaction, so none is counted twice).
INSERT INTO account_row_counts (account_id, kind, n) SELECT account_id, 'contacts', count(*) FROM contacts GROUP BY account_id;
--> statement-breakpoint
INSERT INTO account_row_counts (account_id, kind, n) SELECT account_id, 'conversations', count(*) FROM conversations GROUP BY account_id;
--> statement-breakpoint
INSERT INTO account_row_counts (account_id, kind, n)
  SELECT account_id, 'closedConversations', count(*) FROM conversations WHERE closed_at IS NOT NULL GROUP BY account_id;
