ALTER TABLE "notification_deliveries" ADD COLUMN "last_attempt" integer;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "last_status_code" integer;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "last_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "last_response_head" text;