-- Payloads no query filters on get no planner statistics: ANALYZE then skips sampling them, which was most
-- of its time on these tables (the embedded database analyzes them as they grow, db/statisticsKeeper.ts).
ALTER TABLE "events" ALTER COLUMN "data" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "body" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "media" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "simulator_messages" ALTER COLUMN "body" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "simulator_messages" ALTER COLUMN "media" SET STATISTICS 0;
