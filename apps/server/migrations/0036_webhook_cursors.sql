CREATE TABLE "notification_events" (
	"position" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_events_position_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"body" text NOT NULL,
	"notification_ids" uuid[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ALTER COLUMN "body" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD COLUMN "event_position" bigint;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "sent_position" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "sender_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "sender_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_events_account_idx" ON "notification_events" USING btree ("account_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_events_event_idx" ON "notification_events" USING btree ("account_id","event_id");