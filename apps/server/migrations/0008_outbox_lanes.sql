DROP INDEX "events_pending_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "lane" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "events_pending_idx" ON "events" USING btree ("lane","id") WHERE "events"."dispatched_at" is null;