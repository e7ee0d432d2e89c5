-- The simulator's owed receipts and phone messages move to a narrow table of their own: finishing one was an
-- update of simulator_messages that left the partial due-index, so a new entry in each of its indexes; now it
-- is a delete there and an update on the row's own page (HOT: no index holds done_at or status).
CREATE TABLE "simulator_pending" (
	"id" uuid PRIMARY KEY NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"leased_until" timestamp with time zone
) WITH (fillfactor = 70);
--> statement-breakpoint
INSERT INTO "simulator_pending" ("id", "due_at")
SELECT "id", "due_at" FROM "simulator_messages" WHERE "done_at" IS NULL AND "due_at" IS NOT NULL;--> statement-breakpoint
DROP INDEX "simulator_messages_due_idx";--> statement-breakpoint
CREATE INDEX "simulator_pending_due_idx" ON "simulator_pending" USING btree ("due_at","id");--> statement-breakpoint
ALTER TABLE "simulator_messages" DROP COLUMN "leased_until";
