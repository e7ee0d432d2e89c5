CREATE TABLE "integration_conversation_messages" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"message_id" uuid NOT NULL,
	"external_conversation_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_conversations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"conversation_id" uuid NOT NULL,
	"external_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "intercom_replies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"part_id" text NOT NULL,
	"text" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integration_conversation_messages" ADD CONSTRAINT "integration_conversation_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_conversations" ADD CONSTRAINT "integration_conversations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_conversations" ADD CONSTRAINT "integration_conversations_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intercom_replies" ADD CONSTRAINT "intercom_replies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intercom_replies" ADD CONSTRAINT "intercom_replies_link_id_integration_conversations_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."integration_conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "integration_conversation_messages_idx" ON "integration_conversation_messages" USING btree ("account_id","kind","message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_conversations_external_idx" ON "integration_conversations" USING btree ("account_id","kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integration_conversations_conversation_idx" ON "integration_conversations" USING btree ("account_id","kind","conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "intercom_replies_part_idx" ON "intercom_replies" USING btree ("link_id","part_id");--> statement-breakpoint
CREATE INDEX "intercom_replies_pending_idx" ON "intercom_replies" USING btree ("link_id","due_at") WHERE "intercom_replies"."status" = 'pending';