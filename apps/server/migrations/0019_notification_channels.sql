CREATE TABLE "notification_channel_posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"channel_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"conversation_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"body" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"error" text,
	"slack_channel_id" text,
	"slack_ts" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notification_channels" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"groups" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"slack_team_id" text,
	"slack_team_name" text,
	"slack_bot_user_id" text,
	"slack_channel_id" text,
	"slack_channel_name" text,
	"secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slack_event_receipts" (
	"event_id" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_channel_posts" ADD CONSTRAINT "notification_channel_posts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_channel_posts" ADD CONSTRAINT "notification_channel_posts_channel_id_notification_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."notification_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_channels" ADD CONSTRAINT "notification_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notification_channel_posts_event_idx" ON "notification_channel_posts" USING btree ("channel_id","event_id");--> statement-breakpoint
CREATE INDEX "notification_channel_posts_due_idx" ON "notification_channel_posts" USING btree ("next_attempt_at") WHERE "notification_channel_posts"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notification_channel_posts_slack_idx" ON "notification_channel_posts" USING btree ("slack_channel_id","slack_ts");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_channels_user_idx" ON "notification_channels" USING btree ("account_id","user_id","channel");--> statement-breakpoint
CREATE INDEX "notification_channels_slack_idx" ON "notification_channels" USING btree ("slack_team_id","slack_channel_id");