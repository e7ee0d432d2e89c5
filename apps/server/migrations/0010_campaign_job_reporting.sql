ALTER TABLE "campaign_jobs" ADD COLUMN "reporting" jsonb;--> statement-breakpoint
ALTER TABLE "campaign_jobs" ADD COLUMN "report_claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "campaign_jobs_unreported_idx" ON "campaign_jobs" USING btree ("created_at") WHERE "campaign_jobs"."reporting" is not null and "campaign_jobs"."reported_at" is null;