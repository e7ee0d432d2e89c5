CREATE TABLE "inbound_mail_replies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"mail_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_mails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"via" text NOT NULL,
	"from_address" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"message_id" text,
	"references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"mobile" text,
	"contact_id" uuid,
	"authentication" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailbox_messages" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "mailbox_messages" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "inbound_mail_replies" ADD CONSTRAINT "inbound_mail_replies_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_mail_replies" ADD CONSTRAINT "inbound_mail_replies_mail_id_inbound_mails_id_fk" FOREIGN KEY ("mail_id") REFERENCES "public"."inbound_mails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_mails" ADD CONSTRAINT "inbound_mails_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_mails" ADD CONSTRAINT "inbound_mails_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_mail_replies_event_idx" ON "inbound_mail_replies" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "inbound_mail_replies_pending_idx" ON "inbound_mail_replies" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "inbound_mails_account_idx" ON "inbound_mails" USING btree ("account_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_mails_contact_idx" ON "inbound_mails" USING btree ("account_id","contact_id","received_at");