CREATE TABLE "carrier_settings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"carrier" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"phone_number_id" uuid,
	"group_id" uuid,
	"closed_at" timestamp with time zone,
	"last_message_id" uuid,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_phone_numbers" (
	"group_id" uuid NOT NULL,
	"phone_number_id" uuid NOT NULL,
	CONSTRAINT "group_phone_numbers_group_id_phone_number_id_pk" PRIMARY KEY("group_id","phone_number_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"phone_number_id" uuid,
	"direction" text NOT NULL,
	"from_number" text NOT NULL,
	"to_number" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"template_id" uuid,
	"job_id" uuid,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"encoding" text DEFAULT 'GSM-7' NOT NULL,
	"segments" integer DEFAULT 0 NOT NULL,
	"price" numeric(14, 4) DEFAULT '0' NOT NULL,
	"refunded_at" timestamp with time zone,
	"status" text NOT NULL,
	"carrier" text,
	"carrier_message_id" text,
	"error_code" text,
	"error_description" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"send_after" timestamp with time zone DEFAULT now() NOT NULL,
	"time_zone" text,
	"approved_outside_hours_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"status_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"reply_to_id" uuid,
	"event_type" text,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_price_not_negative" CHECK ("messages"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "phone_numbers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"number" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"type" text DEFAULT 'longcode' NOT NULL,
	"carrier" text NOT NULL,
	"carrier_settings_id" uuid,
	"carrier_number_id" text,
	"status" text NOT NULL,
	"hosted" boolean DEFAULT false NOT NULL,
	"verified_at" timestamp with time zone,
	"supported_destinations" text[] DEFAULT '{}'::text[] NOT NULL,
	"forward_to" text,
	"universal_reply" boolean DEFAULT false NOT NULL,
	"messages_per_second" integer DEFAULT 1 NOT NULL,
	"next_dispatch_at" timestamp with time zone DEFAULT now() NOT NULL,
	"verification_code_hash" text,
	"verification_expires_at" timestamp with time zone,
	"verification_attempts" integer DEFAULT 0 NOT NULL,
	"verification_requested_at" timestamp with time zone,
	"loa" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phone_numbers_rate_positive" CHECK ("phone_numbers"."messages_per_second" > 0)
);
--> statement-breakpoint
CREATE TABLE "simulator_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ref" text,
	"kind" text NOT NULL,
	"business_number" text NOT NULL,
	"phone_number" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"error_text" text,
	"sequence" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulator_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"seed" integer DEFAULT 1 NOT NULL,
	"latency_ms" integer DEFAULT 300 NOT NULL,
	"failure_rate" numeric(5, 4) DEFAULT '0' NOT NULL,
	"error_codes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"messages_per_second" integer DEFAULT 10 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "quiet_hours_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "quiet_hours_start" text DEFAULT '08:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "quiet_hours_end" text DEFAULT '21:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "sender_phone_number_id" uuid;--> statement-breakpoint
ALTER TABLE "carrier_settings" ADD CONSTRAINT "carrier_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_phone_number_id_phone_numbers_id_fk" FOREIGN KEY ("phone_number_id") REFERENCES "public"."phone_numbers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_phone_numbers" ADD CONSTRAINT "group_phone_numbers_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_phone_numbers" ADD CONSTRAINT "group_phone_numbers_phone_number_id_phone_numbers_id_fk" FOREIGN KEY ("phone_number_id") REFERENCES "public"."phone_numbers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_phone_number_id_phone_numbers_id_fk" FOREIGN KEY ("phone_number_id") REFERENCES "public"."phone_numbers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_numbers" ADD CONSTRAINT "phone_numbers_carrier_settings_id_carrier_settings_id_fk" FOREIGN KEY ("carrier_settings_id") REFERENCES "public"."carrier_settings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carrier_settings_account_idx" ON "carrier_settings" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_open_idx" ON "conversations" USING btree ("account_id","contact_id","phone_number_id") WHERE "conversations"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "conversations_account_last_idx" ON "conversations" USING btree ("account_id","last_message_at");--> statement-breakpoint
CREATE INDEX "conversations_contact_idx" ON "conversations" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "group_phone_numbers_number_idx" ON "group_phone_numbers" USING btree ("phone_number_id");--> statement-breakpoint
CREATE INDEX "messages_dispatch_idx" ON "messages" USING btree ("phone_number_id","send_after","id") WHERE "messages"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "messages_sending_idx" ON "messages" USING btree ("claimed_at") WHERE "messages"."status" = 'sending';--> statement-breakpoint
CREATE INDEX "messages_carrier_id_idx" ON "messages" USING btree ("carrier_message_id") WHERE "messages"."carrier_message_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_inbound_carrier_idx" ON "messages" USING btree ("carrier","carrier_message_id") WHERE "messages"."direction" = 'inbound' and "messages"."carrier_message_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_account_idx" ON "messages" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_contact_idx" ON "messages" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "messages_job_idx" ON "messages" USING btree ("job_id") WHERE "messages"."job_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_numbers_active_number_idx" ON "phone_numbers" USING btree ("number") WHERE "phone_numbers"."status" = 'active';--> statement-breakpoint
CREATE INDEX "phone_numbers_account_idx" ON "phone_numbers" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulator_messages_ref_idx" ON "simulator_messages" USING btree ("ref") WHERE "simulator_messages"."ref" is not null;--> statement-breakpoint
CREATE INDEX "simulator_messages_phone_idx" ON "simulator_messages" USING btree ("phone_number","created_at");--> statement-breakpoint
CREATE INDEX "simulator_messages_business_idx" ON "simulator_messages" USING btree ("business_number","created_at");--> statement-breakpoint
CREATE INDEX "simulator_messages_due_idx" ON "simulator_messages" USING btree ("due_at") WHERE "simulator_messages"."done_at" is null;--> statement-breakpoint
ALTER TABLE "groups" DROP COLUMN "phone_number_ids";